/** Legacy clients send who they are in the body; the session decides, and the body may only agree. */
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { HttpError } from '../http/problem.ts';
import type { Viewer } from '../http/viewer.ts';

/** A claimed name matches the user's username or display name, ignoring case (Roblox names are case-insensitive). */
export function assertClaimedName(viewer: Viewer, claimed: string | undefined): void {
  const name = claimed?.trim().toLowerCase();
  if (!name) return;
  const own = [viewer.user.username, viewer.user.displayName].map((value) => value.toLowerCase());
  if (!own.includes(name)) throw new HttpError(403, ERRORS.otherUser);
}

/** A claimed user id must name the session user, or be absent. */
function assertSelf(viewer: Viewer, claimedUserId: string | number | undefined | null): void {
  if (claimedUserId === undefined || claimedUserId === null || claimedUserId === '') return;
  if (String(claimedUserId) !== viewer.user.id) throw new HttpError(403, ERRORS.otherUser);
}

export function assertClaimedIdentity(
  viewer: Viewer,
  claims: { id?: string | number | undefined | null; name?: string | undefined },
): void {
  assertSelf(viewer, claims.id);
  assertClaimedName(viewer, claims.name);
}
