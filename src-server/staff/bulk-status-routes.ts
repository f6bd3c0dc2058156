/**
 * The administrator's bulk status override with per-item results, for the console's outbox: each
 * item is what one `PATCH /api/petitions/:id/status` would be (its own expected version and its own
 * idempotency key) and gets that call's answer, so a row can be sent alone or in a batch and
 * apply once either way. Items are independent: one item's conflict does not hold back the others.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Transaction } from 'kysely';
import { IDEMPOTENCY_KEY_REUSED_TYPE } from '../../src-shared/console/outbox.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import {
  BulkStatusBody,
  BulkStatusResponseSchema,
  type BulkStatusItem,
  type BulkStatusItemResult,
} from '../../src-shared/domain/sync-schemas.ts';
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import { staffStatusEvent } from '../../src-shared/rules/feed.ts';
import { canOverrideStatus } from '../../src-shared/rules/permissions.ts';
import { AUDIT_ACTIONS } from '../../src-shared/domain/audit-actions.ts';
import { writeAudit } from '../audit/audit-log.ts';
import { actionMadeAt } from './action-made-at.ts';
import type { Database } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import type { Viewer } from '../http/viewer.ts';
import { recordPetitionEvents, type NewPetitionEvent } from '../feed/events.ts';
import { toPetition } from '../petitions/petition-record.ts';
import { requirePetition } from '../petitions/petition-reads.ts';
import { claimKeyInFlight, findStoredReply, fingerprintOf, readIdempotencyKey, storeReply } from './idempotency.ts';
import { assertVersion } from './if-match.ts';
import { statusOverrideChanges } from './petition-admin-routes.ts';
import { savePetitionChange } from './versioned-petition-write.ts';
import { problems } from '../http/route-contract.ts';
import { BULK_MADE_AT_NOTE, DOC_TAGS } from './route-schemas.ts';
import type { StaffDeps } from './staff-deps.ts';
import { PANEL_STAFF } from './staff-access.ts';

export const BULK_STATUS_PATH = '/api/petitions/bulk-status';
export const BULK_KEY_HEADER_ERROR = 'A bulk status change takes an idempotencyKey per item, not an Idempotency-Key header';

/** The detail of the 422 for a key given to two items of one call (items are counted from 1). */
export function repeatedKeyDetail(item: number, petitionId: number, firstItem: number): string {
  return `Item ${item} (petition ${petitionId}) repeats the idempotencyKey of item ${firstItem}: each item needs a key of its own`;
}

/**
 * Two items with one key are two requests under one key: the documented answer is 422 (a key reused
 * for another request), naming the item, before anything is claimed or applied. Without this the
 * second item met the first one's claim and the call answered 409 "in progress, retry" forever.
 */
function assertKeysDistinct(items: readonly BulkStatusItem[]): void {
  const firstWith = new Map<string, number>();
  items.forEach((item, index) => {
    if (!item.idempotencyKey) return;
    const first = firstWith.get(item.idempotencyKey);
    if (first !== undefined) {
      throw new HttpError(422, repeatedKeyDetail(index + 1, item.petitionId, first + 1), {
        type: IDEMPOTENCY_KEY_REUSED_TYPE,
        item: index,
        petitionId: item.petitionId,
      });
    }
    firstWith.set(item.idempotencyKey, index);
  });
}

/** The single call an item stands for; its fingerprint makes a key interchangeable between the two. */
export function itemFingerprint(item: BulkStatusItem): string {
  return fingerprintOf({ method: 'PATCH', route: '/api/petitions/:id/status', params: { id: item.petitionId }, body: { status: item.status } });
}

function refused(item: BulkStatusItem, error: unknown): BulkStatusItemResult {
  if (!(error instanceof HttpError)) throw error;
  const result = error.statusCode === 404 ? 'not_found' : error.statusCode === 412 ? 'conflict' : error.statusCode === 422 ? 'key_reused' : null;
  if (!result) throw error;
  const petition = (error.extras.petition as Petition | undefined) ?? null;
  return { petitionId: item.petitionId, result, status: error.statusCode, petition, detail: error.detail, replayed: false };
}

async function applyItem(
  trx: Transaction<Database>,
  deps: StaffDeps,
  viewer: Viewer,
  item: BulkStatusItem,
  now: Date,
  madeAt: Date | null,
  /** What the items' creators and signers are told, recorded once every item is applied. */
  feedEvents: NewPetitionEvent[],
): Promise<BulkStatusItemResult> {
  const actorId = viewer.user.id;
  const key = item.idempotencyKey;
  const fingerprint = key ? itemFingerprint(item) : '';
  try {
    if (key) {
      const stored = await findStoredReply(trx, actorId, key, fingerprint);
      if (stored) {
        return { petitionId: item.petitionId, result: 'applied', status: stored.statusCode, petition: stored.body as Petition, detail: null, replayed: true };
      }
    }
    // Checked per item so each result is what the single call would answer (403 for a minister).
    if (!canOverrideStatus(viewer.user)) {
      return { petitionId: item.petitionId, result: 'forbidden', status: 403, petition: null, detail: ERRORS.adminOnly, replayed: false };
    }
    const counts = deps.context.signatureCounts;
    const row = counts.withLive(await requirePetition(trx, item.petitionId));
    let outcome: BulkStatusItemResult;
    if (row.status === item.status) {
      // Already there: nothing to write or audit, whatever version the client saw.
      outcome = { petitionId: item.petitionId, result: 'unchanged', status: 200, petition: toPetition(row), detail: null, replayed: false };
    } else {
      assertVersion(row, item.expectedVersion === undefined ? null : [item.expectedVersion]);
      const after = toPetition(counts.withLive(await savePetitionChange(trx, row, statusOverrideChanges(row, item.status, now), now)));
      await writeAudit(trx, {
        actor: viewer.user,
        action: AUDIT_ACTIONS.petitionStatus,
        targetType: 'petition',
        targetId: row.id,
        before: toPetition(row),
        after,
        at: now,
        madeAt,
      });
      const feedEvent = staffStatusEvent(row.status as PetitionStatus, item.status);
      if (feedEvent) feedEvents.push({ petitionId: row.id, detail: feedEvent, actorId: viewer.user.id, at: now });
      outcome = { petitionId: item.petitionId, result: 'applied', status: 200, petition: after, detail: null, replayed: false };
    }
    if (key) await storeReply(trx, { actorId, key, fingerprint, reply: { statusCode: 200, body: outcome.petition }, now });
    return outcome;
  } catch (error) {
    return refused(item, error);
  }
}

export function registerBulkStatusRoutes(app: FastifyInstance, deps: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.post(
    BULK_STATUS_PATH,
    {
      config: { access: PANEL_STAFF },
      schema: {
        operationId: 'setPetitionStatuses',
        tags: [DOC_TAGS.petitions],
        summary: 'Set the status of several petitions, with a result per petition (administrator)',
        description:
          'Each item is one `PATCH /api/petitions/{id}/status`: `expectedVersion` is its If-Match and `idempotencyKey` its ' +
          'Idempotency-Key (the same key in a single call or in a batch is the same request, and replays its stored answer). ' +
          'Items are applied independently and each is audited like the single call. Results: `applied`, `unchanged` ' +
          '(already in that status: nothing written or audited), `conflict` (the petition moved on; `petition` is the current ' +
          'one), `not_found`, `forbidden` (only the administrator may override statuses), `key_reused` (the key was used for ' +
          'another request). Keys are per item, so the call itself takes no Idempotency-Key header; one key on two items of ' +
          'the call is 422 naming the second item (`item`, counted from 0, and `petitionId`), and nothing is applied; while ' +
          `an item key is still being processed by another call the whole call answers 409 and may be retried. ${BULK_MADE_AT_NOTE}`,
        body: BulkStatusBody,
        response: { 200: BulkStatusResponseSchema, ...problems(400, 401, 403, 409, 422, 503) },
      },
    },
    async (request) => {
      // Staff reach the endpoint; whether each item may be changed is answered per item.
      const viewer = request.viewerFor(PANEL_STAFF);
      if (readIdempotencyKey(request) !== null) throw new HttpError(400, BULK_KEY_HEADER_ERROR);
      assertKeysDistinct(request.body.items);
      // One override made at one time: the batch's made-at goes with every item's audit row.
      const madeAt = actionMadeAt(request, deps.context.now());
      const releases: (() => void)[] = [];
      try {
        for (const item of request.body.items) {
          if (item.idempotencyKey) releases.push(claimKeyInFlight(deps.context.db, viewer.user.id, item.idempotencyKey));
        }
        const results = await deps.context.db.transaction().execute(async (trx) => {
          // As runStaffMutation does for one key, on any node; all keys first and in one order, so two
          // calls sharing keys in different orders wait for each other instead of deadlocking.
          const keys = [...new Set(request.body.items.flatMap((item) => (item.idempotencyKey ? [item.idempotencyKey] : [])))].sort();
          for (const key of keys) await deps.context.locks.lock(trx, 'idempotency-key', JSON.stringify([viewer.user.id, key]));
          const now = deps.context.now();
          const out: BulkStatusItemResult[] = [];
          const feedEvents: NewPetitionEvent[] = [];
          for (const item of request.body.items) out.push(await applyItem(trx, deps, viewer, item, now, madeAt, feedEvents));
          // After every petition row is written: the events' lock is the transaction's last (feed/events.ts).
          await recordPetitionEvents(trx, feedEvents);
          return out;
        });
        return { results };
      } finally {
        for (const release of releases) release();
      }
    },
  );
}
