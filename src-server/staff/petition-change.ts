/**
 * The shape every staff edit of one petition takes: load it (404, or 412 on a stale If-Match), decide
 * the change, save it with a version bump, audit it and queue its chat message, all in one transaction.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { writeAudit, type AuditAction } from '../audit/audit-log.ts';
import type { Database, PetitionRow, PetitionUpdate } from '../db/schema.ts';
import type { Viewer } from '../http/viewer.ts';
import type { PetitionEvent } from '../notifications/staff-event-messages.ts';
import { toPetition } from '../petitions/petition-record.ts';
import { expectedVersions, petitionVersion } from './if-match.ts';
import { loadPetitionForChange, savePetitionChange } from './petition-changes.ts';
import { notifyPetitionEvent } from './petition-events.ts';
import type { StaffDeps } from './staff-deps.ts';
import { runStaffMutation } from './staff-mutation.ts';

export interface PetitionChange {
  changes: PetitionUpdate;
  action: AuditAction;
  /** The chat message to queue, if this kind of change has one (§7). */
  event?: PetitionEvent;
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
  let notified = false;
  const petition = await runStaffMutation(
    request,
    reply,
    deps.context,
    viewer,
    async (trx, now) => {
      const counts = deps.context.signatureCounts;
      const row = counts.withLive(await loadPetitionForChange(trx, petitionId, expected));
      const { changes, action, event } = await decide(row, trx, now);
      const after = toPetition(counts.withLive(await savePetitionChange(trx, row, changes, now)));
      await writeAudit(trx, {
        actor: viewer.user,
        action,
        targetType: 'petition',
        targetId: row.id,
        before: toPetition(row),
        after,
        at: now,
      });
      if (event) {
        await notifyPetitionEvent(trx, deps, { event, petition: after, viewer, now });
        notified = true;
      }
      return { body: after };
    },
    { etag: petitionVersion },
  );
  if (notified) deps.notifier.nudge();
  return petition;
}
