/** The chat messages staff actions queue, inside the action's transaction (staff-chat/chat-queue.ts). */
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { roleLabel } from '../../src-shared/rules/roles.ts';
import type { Db } from '../db/schema.ts';
import type { Viewer } from '../http/viewer.ts';
import { enqueueChatMessage } from '../staff-chat/chat-queue.ts';
import { petitionEventMessage, type EventActor, type PetitionChatEvent } from '../staff-chat/staff-event-messages.ts';
import type { StaffDeps } from './staff-deps.ts';

/** How a chat message names the staff member: display name and role label. */
export function eventActor(viewer: Viewer): EventActor {
  return { name: viewer.user.displayName, role: roleLabel(viewer.user) };
}

/** Queues the message for a staff change to one petition. */
export async function queuePetitionChatMessage(
  db: Db,
  deps: StaffDeps,
  entry: { event: PetitionChatEvent; petition: Petition; viewer: Viewer; now: Date },
): Promise<void> {
  await enqueueChatMessage(db, {
    event: entry.event,
    message: petitionEventMessage({
      event: entry.event,
      petition: entry.petition,
      actor: eventActor(entry.viewer),
      now: entry.now,
      publicBaseUrl: deps.context.config.publicBaseUrl,
    }),
    now: entry.now,
  });
}
