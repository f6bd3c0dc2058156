/**
 * The office each member chose for their latest response, kept per member in the navigation
 * store's drafts (a console may be shared: one member's office is never offered to another). It is
 * read once from the server when the workspace starts (GET /api/me/last-office, through the read
 * cache) and updated whenever the member queues a response.
 */
import { canManageGovernmentResponse } from '../../src-shared/rules/permissions.ts';
import type { User } from '../../src-shared/domain/schemas.ts';
import { readPath } from './state/cachedReads.ts';
import type { ConsoleStores } from './state/stores.ts';

export const lastOfficeKey = (userId: string) => `last-office:${userId}`;

export function rememberedOffice(drafts: Readonly<Record<string, unknown>>, userId: string): string | null {
  const office = drafts[lastOfficeKey(userId)];
  return typeof office === 'string' && office ? office : null;
}

/** Fills in the member's last office from the server unless the console already knows a newer one. */
export async function loadLastOffice(stores: ConsoleStores, user: User | null): Promise<void> {
  if (!user || !canManageGovernmentResponse(user)) return;
  try {
    const { data } = await readPath<{ office: string | null }>(stores.api, '/api/me/last-office');
    const nav = stores.nav.getState();
    if (data.office && rememberedOffice(nav.drafts, user.id) === null) nav.setDraft(lastOfficeKey(user.id), data.office);
  } catch {
    // Not read yet and offline: the form starts from the member's rank office instead.
  }
}
