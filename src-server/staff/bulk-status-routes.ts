/**
 * The administrator's bulk status override with per-item results, for the console's outbox: each
 * item is what one `PATCH /api/petitions/:id/status` would be (its own expected version and its own
 * idempotency key) and gets that call's answer, so a row can be sent alone or in a batch and
 * apply once either way. Items are independent: one item's conflict does not hold back the others.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Transaction } from 'kysely';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import {
  BulkStatusBody,
  BulkStatusResponseSchema,
  type BulkStatusItem,
  type BulkStatusItemResult,
} from '../../src-shared/domain/sync-schemas.ts';
import { canOverrideStatus, canSeeGovernmentPanel } from '../../src-shared/rules/permissions.ts';
import { AUDIT_ACTIONS, writeAudit } from '../audit/audit-log.ts';
import type { Database } from '../db/schema.ts';
import { requirePermission } from '../http/guards.ts';
import { HttpError } from '../http/problem.ts';
import { permitted } from '../http/route-contract.ts';
import type { Viewer } from '../http/viewer.ts';
import { toPetition } from '../petitions/petition-record.ts';
import { requirePetition } from '../petitions/petition-reads.ts';
import { claimKeyInFlight, findStoredReply, fingerprintOf, readIdempotencyKey, storeReply } from './idempotency.ts';
import { assertVersion } from './if-match.ts';
import { statusOverrideChanges } from './petition-admin-routes.ts';
import { savePetitionChange } from './petition-changes.ts';
import { DOC_TAGS, problems } from './route-schemas.ts';
import type { StaffDeps } from './staff-deps.ts';

export const BULK_STATUS_PATH = '/api/petitions/bulk-status';
export const BULK_KEY_HEADER_ERROR = 'A bulk status change takes an idempotencyKey per item, not an Idempotency-Key header';

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
      });
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
      config: { access: permitted(canSeeGovernmentPanel, ERRORS.staffOnly) },
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
          'another request). Keys are per item, so the call itself takes no Idempotency-Key header; while an item key is ' +
          'still being processed by another call the whole call answers 409 and may be retried.',
        body: BulkStatusBody,
        response: { 200: BulkStatusResponseSchema, ...problems(400, 401, 403, 409, 503) },
      },
    },
    async (request) => {
      // Staff reach the endpoint; whether each item may be changed is answered per item.
      const viewer = requirePermission(request, canSeeGovernmentPanel, ERRORS.staffOnly);
      if (readIdempotencyKey(request) !== null) throw new HttpError(400, BULK_KEY_HEADER_ERROR);
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
          for (const item of request.body.items) out.push(await applyItem(trx, deps, viewer, item, now));
          return out;
        });
        return { results };
      } finally {
        for (const release of releases) release();
      }
    },
  );
}
