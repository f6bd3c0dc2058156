/**
 * The one way staff writes run: a transaction holding the change, its audit row, its chat message and
 * the idempotency record together, so a replayed request either sees all of them or none.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';
import type { Viewer } from '../http/viewer.ts';
import { actionMadeAt } from './action-made-at.ts';
import { claimKeyInFlight, findStoredReply, readIdempotencyKey, requestFingerprint, storeReply } from './idempotency.ts';
import { setEtag } from './if-match.ts';

export interface MutationOutcome<T> {
  statusCode?: number;
  body: T;
}

export interface MutationOptions<T> {
  /** The petition version to send as ETag, for replies (fresh or replayed) that carry a petition. */
  etag?: (body: T) => number | undefined;
}

/**
 * `now` is when the action is applied; `madeAt` when the staff member made it, if the request says
 * so (X-Action-Made-At, from the console's outbox), for the audit row (docs/audit.md#made-at-and-applied-at).
 */
export type MutationAction<T> = (trx: Transaction<Database>, now: Date, madeAt: Date | null) => Promise<MutationOutcome<T>>;

/**
 * Runs `action` in a transaction. With an Idempotency-Key, a repeat of the same request returns the
 * stored reply without running `action`; errors roll everything back and store nothing, so a retry
 * after a refusal (403, 404, 409, 412) is evaluated afresh.
 */
export async function runStaffMutation<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  context: Pick<AppContext, 'db' | 'now' | 'locks'>,
  viewer: Viewer,
  action: MutationAction<T>,
  options: MutationOptions<T> = {},
): Promise<T> {
  const key = readIdempotencyKey(request);
  const madeAt = actionMadeAt(request, context.now());
  const fingerprint = key ? requestFingerprint(request) : '';
  const actorId = viewer.user.id;
  const release = key ? claimKeyInFlight(context.db, actorId, key) : () => undefined;
  const result = await context.db.transaction().execute(async (trx) => {
    if (key) {
      // Parallel duplicates (two tabs, a retry racing its original, on any node) wait here for the
      // first to commit, then replay its stored reply instead of applying again.
      await context.locks.lock(trx, 'idempotency-key', JSON.stringify([actorId, key]));
      const stored = await findStoredReply(trx, actorId, key, fingerprint);
      if (stored) return { replayed: true, statusCode: stored.statusCode, body: stored.body as T };
    }
    const now = context.now();
    const outcome = await action(trx, now, madeAt);
    const statusCode = outcome.statusCode ?? 200;
    if (key) await storeReply(trx, { actorId, key, fingerprint, reply: { statusCode, body: outcome.body }, now });
    return { replayed: false, statusCode, body: outcome.body };
  }).finally(release);
  reply.code(result.statusCode);
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  const version = options.etag?.(result.body);
  if (version !== undefined) setEtag(reply, version);
  return result.body;
}
