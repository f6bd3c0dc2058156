/**
 * Telling a petition's creator what moderation did to it (docs/moderation.md#what-the-creator-is-told):
 * hidden, rejected or restored, with the reason, to the creator only (never who reported it). Every
 * moderation change calls this one function inside its own transaction, as its last write, and it
 * records the event in the members' notification centre (docs/notifications.md): the kinds
 * petition_hidden, petition_rejected and petition_restored, whose audience is the creator alone.
 */
import type { Db } from '../db/schema.ts';
import { recordPetitionEvent } from '../feed/events.ts';

export type CreatorNoticeKind = 'petition_hidden' | 'petition_rejected' | 'petition_restored';

export interface CreatorNotice {
  petitionId: number;
  kind: CreatorNoticeKind;
  /** The reason in words the creator reads (a moderator's note, a rejection reason's title…). */
  reason: string;
  /** The staff member who decided; null when members' reports hid the petition. */
  actorId: string | null;
  at: Date;
}

export async function tellCreator(db: Db, notice: CreatorNotice): Promise<void> {
  await recordPetitionEvent(db, { petitionId: notice.petitionId, detail: { kind: notice.kind, reason: notice.reason }, actorId: notice.actorId, at: notice.at });
}
