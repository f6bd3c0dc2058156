/**
 * The shape every staff edit of one petition takes: load it (404, or 412 on a stale If-Match), decide
 * the change, save it with a version bump, audit it, queue its chat message and record what its
 * signers are told, all in one transaction.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { PetitionEventDetail } from '../../src-shared/domain/feed-schemas.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import type { AuditAction } from '../../src-shared/domain/audit-actions.ts';
import { writeAudit } from '../audit/audit-log.ts';
import type { Database, PetitionRow, PetitionUpdate } from '../db/schema.ts';
import { recordPetitionEvent } from '../feed/events.ts';
import type { Viewer } from '../http/viewer.ts';
import type { PetitionChatEvent } from '../staff-chat/staff-event-messages.ts';
import { toPetition } from '../petitions/petition-record.ts';
import { expectedVersions, petitionVersion } from './if-match.ts';
import { loadPetitionForChange, savePetitionChange } from './versioned-petition-write.ts';
import { queuePetitionChatMessage } from './petition-chat-message.ts';
import type { StaffDeps } from './staff-deps.ts';
import { runStaffMutation } from './staff-mutation.ts';

export interface PetitionChange {
  changes: PetitionUpdate;
  action: AuditAction;
  /** The chat message to queue, if this kind of change has one (docs/rules.md#chat-notifications). */
  event?: PetitionChatEvent;
  /** What the petition's creator and signers are told, if anything (docs/notifications.md#event-kinds). */
  feedEvent?: PetitionEventDetail | null;
}

export type DecideChange = (row: PetitionRow, trx: Transaction<Database>, now: Date) => PetitionChange | Promise<PetitionChange>;

export async function runPetitionChange(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: StaffDeps,
  viewer: Viewer,
  petitionId: number,
  decide: DecideChange,
): Promise<Petition> {
  const expected = expectedVersions(request);
  let messageQueued = false;
  const petition = await runStaffMutation(
    request,
    reply,
    deps.context,
    viewer,
    async (trx, now, madeAt) => {
      const counts = deps.context.signatureCounts;
      const row = counts.withLive(await loadPetitionForChange(trx, petitionId, expected));
      const { changes, action, event, feedEvent } = await decide(row, trx, now);
      const after = toPetition(counts.withLive(await savePetitionChange(trx, row, changes, now)));
      await writeAudit(trx, {
        actor: viewer.user,
        action,
        targetType: 'petition',
        targetId: row.id,
        before: toPetition(row),
        after,
        at: now,
        madeAt,
      });
      if (event) {
        await queuePetitionChatMessage(trx, deps, { event, petition: after, viewer, now });
        messageQueued = true;
      }
      // Last write of the transaction (feed/events.ts says why).
      if (feedEvent) await recordPetitionEvent(trx, { petitionId: row.id, detail: feedEvent, actorId: viewer.user.id, at: now });
      return { body: after };
    },
    { etag: petitionVersion },
  );
  if (messageQueued) deps.context.chatDelivery.nudge();
  // Open staff streams on this node see the queues change now rather than at the next summary.
  void deps.context.staffEvents.poke({ queues: true });
  return petition;
}
