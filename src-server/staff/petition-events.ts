/** Queues the chat message for a staff change to a petition, inside the change's transaction. */
import type { Petition } from '../../src-shared/domain/schemas.ts';
import type { Viewer } from '../http/viewer.ts';
import { enqueueNotification } from '../notifications/outbox.ts';
import { petitionEventMessage, type PetitionEvent } from '../notifications/staff-event-messages.ts';
import type { Db } from '../db/schema.ts';
import { eventActor, type StaffDeps } from './staff-deps.ts';

export async function notifyPetitionEvent(
  db: Db,
  deps: StaffDeps,
  entry: { event: PetitionEvent; petition: Petition; viewer: Viewer; now: Date },
): Promise<void> {
  await enqueueNotification(db, {
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
