/** Authorization checks used by every route: the acting user always comes from the session. */
import type { FastifyRequest } from 'fastify';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { PermissionSubject } from '../../src-shared/rules/permissions.ts';
import { HttpError } from './problem.ts';
import type { Viewer } from './viewer.ts';

export function requireViewer(request: FastifyRequest): Viewer {
  if (!request.viewer) throw new HttpError(401, ERRORS.loginRequired);
  return request.viewer;
}

export function requirePermission(
  request: FastifyRequest,
  allowed: (user: PermissionSubject) => boolean,
  forbiddenDetail: string,
): Viewer {
  const viewer = requireViewer(request);
  if (!allowed(viewer.user)) throw new HttpError(403, forbiddenDetail);
  return viewer;
}

/** Legacy body fields naming the actor must name the session user, or be absent. */
export function assertSelf(viewer: Viewer, claimedUserId: string | number | undefined | null): void {
  if (claimedUserId === undefined || claimedUserId === null || claimedUserId === '') return;
  if (String(claimedUserId) !== viewer.user.id) throw new HttpError(403, ERRORS.otherUser);
}
