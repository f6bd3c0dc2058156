/**
 * Idempotency-Key support for staff writes. The console's outbox may send the same action twice
 * (a lost reply, a reconnect); the stored reply lets the second call answer without applying again.
 * Keys are scoped to the actor, so one user's key can never replay another user's result.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { MADE_AT_MAX_AGE_MS } from '../../src-shared/console/action-made-at.ts';
import { IDEMPOTENCY_IN_PROGRESS_TYPE, IDEMPOTENCY_KEY_REUSED_TYPE } from '../../src-shared/console/outbox.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { HttpError } from '../http/problem.ts';
import type { Db } from '../db/schema.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_FORMAT_ERROR = 'Idempotency-Key must be 1 to 255 visible ASCII characters';
/**
 * Long enough for a console that stayed offline over a holiday; old keys are pruned after this. An
 * action made longer ago than this is refused (its X-Action-Made-At), so a pruned key is never resent.
 */
export const IDEMPOTENCY_RETENTION_MS = MADE_AT_MAX_AGE_MS;

export function readIdempotencyKey(request: FastifyRequest): string | null {
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw new HttpError(400, IDEMPOTENCY_KEY_FORMAT_ERROR);
  return key;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What a request asks for, not how it was spelt: method, matched route pattern, validated path
 * parameters and body (`/%61pi/…` and `/api/…` are the same request). Items of a bulk call use it
 * with the single call's route, so one key means one request whichever way it comes.
 */
export function fingerprintOf(request: { method: string; route: string; params: unknown; body: unknown }): string {
  return createHash('sha256')
    .update(`${request.method}\n${request.route}\n${canonicalJson(request.params)}\n${canonicalJson(request.body)}`)
    .digest('base64url');
}

export function requestFingerprint(request: FastifyRequest): string {
  return fingerprintOf({
    method: request.method,
    route: request.routeOptions.url ?? request.url.split('?')[0] ?? request.url,
    params: request.params,
    body: request.body,
  });
}

/** The answer to a key reused for another request (the client's bug: its outbox marks the row failed). */
export function keyReusedError(): HttpError {
  return new HttpError(422, ERRORS.idempotencyMismatch, { type: IDEMPOTENCY_KEY_REUSED_TYPE });
}

/** The answer to a key whose first request has not finished: the client retries with the same key. */
export function keyInProgressError(): HttpError {
  return new HttpError(409, ERRORS.idempotencyInProgress, { type: IDEMPOTENCY_IN_PROGRESS_TYPE }, { 'retry-after': '1' });
}

/**
 * Keys whose first request is running in this process. A second request with the same key gets
 * 409 at once instead of waiting on (or racing) the first; once the first has finished it replays.
 */
const keysInFlight = new WeakMap<object, Set<string>>();

export function claimKeyInFlight(scope: object, actorId: string, key: string): () => void {
  let keys = keysInFlight.get(scope);
  if (!keys) keysInFlight.set(scope, (keys = new Set()));
  const id = `${actorId}\n${key}`;
  if (keys.has(id)) throw keyInProgressError();
  keys.add(id);
  return () => keys.delete(id);
}

export interface StoredReply {
  statusCode: number;
  body: unknown;
}

/** Returns the stored reply for a repeat of the same request; 422 when the key was used for another one. */
export async function findStoredReply(
  db: Db,
  actorId: string,
  key: string,
  fingerprint: string,
): Promise<StoredReply | null> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'status_code', 'response_body'])
    .where('actor_id', '=', actorId)
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) return null;
  if (row.request_hash !== fingerprint) throw keyReusedError();
  return { statusCode: row.status_code, body: JSON.parse(row.response_body) as unknown };
}

export async function storeReply(
  db: Db,
  entry: { actorId: string; key: string; fingerprint: string; reply: StoredReply; now: Date },
): Promise<void> {
  const result = await db
    .insertInto('idempotency_keys')
    .values({
      actor_id: entry.actorId,
      key: entry.key,
      request_hash: entry.fingerprint,
      status_code: entry.reply.statusCode,
      response_body: JSON.stringify(entry.reply.body),
      created_at: entry.now.toISOString(),
    })
    .onConflict((oc) => oc.columns(['actor_id', 'key']).doNothing())
    .executeTakeFirst();
  // Another connection stored this key first (databases with concurrent writers, or another server
  // process): roll this request back and let the client retry, which then replays theirs.
  if (Number(result.numInsertedOrUpdatedRows ?? 0n) === 0) throw keyInProgressError();
}

export async function pruneIdempotencyKeys(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS).toISOString();
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
