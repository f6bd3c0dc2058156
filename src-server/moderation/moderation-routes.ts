/**
 * The moderators' API (docs/moderation.md#the-queue, #decisions): the queue, one case, a decision
 * about one petition and decisions about several with a result each. Decisions take If-Match (the
 * petition version the moderator saw) and Idempotency-Key like every staff write, so the console's
 * outbox can queue them offline (src-shared/console/staff-actions.ts: moderation.*).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Transaction } from 'kysely';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import {
  ModerationBulkBody,
  ModerationBulkResponseSchema,
  ModerationCaseSchema,
  ModerationDecisionBody,
  ModerationQueueQuery,
  ModerationQueueSchema,
  type ModerationBulkItem,
  type ModerationBulkItemResult,
} from '../../src-shared/domain/moderation-schemas.ts';
import { PetitionSchema, type Petition } from '../../src-shared/domain/schemas.ts';
import type { Database } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import { problems } from '../http/route-contract.ts';
import type { Viewer } from '../http/viewer.ts';
import { claimKeyInFlight, findStoredReply, fingerprintOf, readIdempotencyKey, storeReply } from '../staff/idempotency.ts';
import { expectedVersions, petitionVersion } from '../staff/if-match.ts';
import { BULK_MADE_AT_NOTE, DOC_TAGS, OFFLINE_HEADERS_NOTE, PetitionParams } from '../staff/route-schemas.ts';
import type { StaffDeps } from '../staff/staff-deps.ts';
import { actionMadeAt } from '../staff/action-made-at.ts';
import { runStaffMutation } from '../staff/staff-mutation.ts';
import { MODERATORS } from './moderation-access.ts';
import { applyModerationDecision } from './moderation-decisions.ts';
import { moderationCase, moderationQueue } from './moderation-queue.ts';
import { MODERATION_LOCK } from './report-reads.ts';

export const MODERATION_PATH = '/api/petitions/:id/moderation';
export const BULK_MODERATION_PATH = '/api/petitions/bulk-moderation';
export const BULK_MODERATION_KEY_HEADER_ERROR = 'Bulk moderation takes an idempotencyKey per item, not an Idempotency-Key header';

/** The single call an item stands for; its fingerprint makes a key interchangeable between the two. */
export function moderationItemFingerprint(item: ModerationBulkItem): string {
  return fingerprintOf({ method: 'POST', route: MODERATION_PATH, params: { id: item.petitionId }, body: item.action });
}

const DECISIONS_DESCRIPTION =
  '`keep` settles the open reports (a hidden petition comes back), `hide` takes a reason the creator reads, ' +
  '`reject` takes a rejection reason code (GET /api/rejection-reasons), `restore` brings back a hidden or rejected petition ' +
  'and settles its reports. A decision that would change nothing answers 200 with the petition as it is and writes nothing. ' +
  'Otherwise a stale If-Match answers 412 with the current petition (another moderator acted first), and a decision the ' +
  "petition's state refuses (keeping or hiding a rejected petition) answers 409 with it. Every applied decision is audited, " +
  'recorded in the case history and told to the creator (not a keep of a petition that was never hidden).';

function refusedItem(item: ModerationBulkItem, error: unknown): ModerationBulkItemResult {
  if (!(error instanceof HttpError)) throw error;
  const results: Record<number, ModerationBulkItemResult['result']> = { 400: 'refused', 404: 'not_found', 409: 'refused', 412: 'conflict', 422: 'key_reused' };
  const result = results[error.statusCode];
  if (!result) throw error;
  const petition = (error.extras.petition as Petition | undefined) ?? null;
  return { petitionId: item.petitionId, result, status: error.statusCode, petition, detail: error.detail, replayed: false };
}

async function applyItem(
  trx: Transaction<Database>,
  deps: StaffDeps,
  viewer: Viewer,
  item: ModerationBulkItem,
  now: Date,
  madeAt: Date | null,
): Promise<ModerationBulkItemResult> {
  const actorId = viewer.user.id;
  const key = item.idempotencyKey;
  const fingerprint = key ? moderationItemFingerprint(item) : '';
  try {
    if (key) {
      const stored = await findStoredReply(trx, actorId, key, fingerprint);
      if (stored) {
        return { petitionId: item.petitionId, result: 'applied', status: stored.statusCode, petition: stored.body as Petition, detail: null, replayed: true };
      }
    }
    const expected = item.expectedVersion === undefined ? null : [item.expectedVersion];
    const decided = await applyModerationDecision(trx, deps.context, viewer, item.petitionId, item.action, expected, now, madeAt);
    if (key) await storeReply(trx, { actorId, key, fingerprint, reply: { statusCode: 200, body: decided.petition }, now });
    return { petitionId: item.petitionId, result: decided.outcome, status: 200, petition: decided.petition, detail: null, replayed: false };
  } catch (error) {
    return refusedItem(item, error);
  }
}

export function registerModerationRoutes(app: FastifyInstance, deps: StaffDeps): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const { context } = deps;

  typed.get(
    '/api/moderation/queue',
    {
      config: { access: MODERATORS },
      schema: {
        operationId: 'listModerationQueue',
        tags: [DOC_TAGS.moderation],
        summary: 'The moderation queue (rank 7 and up, administrator)',
        description:
          '`view=review` (default): petitions with open reports and hidden petitions, most open reports first, then the longest ' +
          'waiting. `view=rejected`: rejected petitions, newest first. Each item is a whole case: the petition (with `moderation` ' +
          'while hidden or rejected), its reports with reasons and texts, the creator, their other petitions and past moderation. ' +
          '`counts` gives the navigation badges.',
        querystring: ModerationQueueQuery,
        response: { 200: ModerationQueueSchema, ...problems(400, 401, 403, 503) },
      },
    },
    async (request) => moderationQueue(context.db, context.signatureCounts, request.query),
  );

  typed.get(
    '/api/moderation/petitions/:id',
    {
      config: { access: MODERATORS },
      schema: {
        operationId: 'getModerationCase',
        tags: [DOC_TAGS.moderation],
        summary: 'One petition as a moderator reviews it (rank 7 and up, administrator)',
        description: 'The same case as a queue item, for any petition (reported or not). The ETag is the petition version to send in If-Match.',
        params: PetitionParams,
        response: { 200: ModerationCaseSchema, ...problems(400, 401, 403, 404, 503) },
      },
    },
    async (request, reply) => {
      const found = await moderationCase(context.db, context.signatureCounts, request.params.id);
      if (!found) throw new HttpError(404, ERRORS.petitionNotFound);
      reply.header('etag', `"${found.petition.version}"`);
      return found;
    },
  );

  typed.post(
    MODERATION_PATH,
    {
      config: { access: MODERATORS },
      schema: {
        operationId: 'moderatePetition',
        tags: [DOC_TAGS.moderation],
        summary: 'Keep, hide, reject or restore a petition (rank 7 and up, administrator)',
        description: `${DECISIONS_DESCRIPTION} ${OFFLINE_HEADERS_NOTE}`,
        params: PetitionParams,
        body: ModerationDecisionBody,
        response: { 200: PetitionSchema, ...problems(400, 401, 403, 404, 409, 412, 422, 503) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(MODERATORS);
      const expected = expectedVersions(request);
      const petition = await runStaffMutation(
        request,
        reply,
        context,
        viewer,
        async (trx, now, madeAt) => ({
          body: (await applyModerationDecision(trx, context, viewer, request.params.id, request.body, expected, now, madeAt)).petition,
        }),
        { etag: petitionVersion },
      );
      context.moderationWatermark.advance();
      return petition;
    },
  );

  typed.post(
    BULK_MODERATION_PATH,
    {
      config: { access: MODERATORS },
      schema: {
        operationId: 'moderatePetitions',
        tags: [DOC_TAGS.moderation],
        summary: 'Decide about several petitions, with a result per petition (rank 7 and up, administrator)',
        description:
          'Each item is one `POST /api/petitions/{id}/moderation`: `action` is its body, `expectedVersion` its If-Match and ' +
          '`idempotencyKey` its Idempotency-Key (the same key alone or in a batch is the same request, and replays its stored ' +
          'answer). Items are applied independently, each audited like the single call. Results: `applied`, `unchanged` ' +
          '(nothing to do), `conflict` (412: another moderator acted first; `petition` is the current one), `refused` (409 or ' +
          '400: the state refuses it, or the rejection reason does not exist), `not_found`, `key_reused`. While an item key is ' +
          `still being processed by another call the whole call answers 409 and may be retried. ${BULK_MADE_AT_NOTE}`,
        body: ModerationBulkBody,
        response: { 200: ModerationBulkResponseSchema, ...problems(400, 401, 403, 409, 503) },
      },
    },
    async (request) => {
      const viewer = request.viewerFor(MODERATORS);
      if (readIdempotencyKey(request) !== null) throw new HttpError(400, BULK_MODERATION_KEY_HEADER_ERROR);
      // One batch made at one time: its made-at goes with every item's audit row, and a bad one
      // refuses the whole call before any item is applied (docs/audit.md#made-at-and-applied-at).
      const madeAt = actionMadeAt(request, context.now());
      const items = request.body.items;
      const releases: (() => void)[] = [];
      try {
        for (const item of items) {
          if (item.idempotencyKey) releases.push(claimKeyInFlight(context.db, viewer.user.id, item.idempotencyKey));
        }
        const results = await context.db.transaction().execute(async (trx) => {
          // Every lock first, each kind in one order (keys, then petitions by id), so two calls sharing
          // keys or petitions wait for each other instead of deadlocking (the single call takes the same two).
          const keys = [...new Set(items.flatMap((item) => (item.idempotencyKey ? [item.idempotencyKey] : [])))].sort();
          for (const key of keys) await context.locks.lock(trx, 'idempotency-key', JSON.stringify([viewer.user.id, key]));
          for (const id of items.map((item) => item.petitionId).sort((a, b) => a - b)) await context.locks.lock(trx, MODERATION_LOCK, String(id));
          const now = context.now();
          const out: ModerationBulkItemResult[] = [];
          for (const item of items) out.push(await applyItem(trx, deps, viewer, item, now, madeAt));
          return out;
        });
        context.moderationWatermark.advance();
        return { results };
      } finally {
        for (const release of releases) release();
      }
    },
  );
}
