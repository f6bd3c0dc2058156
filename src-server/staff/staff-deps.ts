/** What every staff route module receives. */
import type { AppContext } from '../context.ts';
import type { Viewer } from '../http/viewer.ts';
import type { EventActor } from '../notifications/staff-event-messages.ts';
import { roleLabel } from '../../src-shared/rules/roles.ts';

export interface StaffDeps {
  context: AppContext;
  /** Tells the notification worker that the outbox has new rows (after the transaction committed). */
  notifier: { nudge(): void };
}

/** How a chat message names the staff member: display name and role label. */
export function eventActor(viewer: Viewer): EventActor {
  return { name: viewer.user.displayName, role: roleLabel(viewer.user) };
}
