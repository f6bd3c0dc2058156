/** Every server answer's effect on a row, backoff with jitter, and Retry-After. */
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src-shared/api/client.ts';
import {
  BACKOFF_BASE_MS,
  BACKOFF_CAP_MS,
  backoffDelayMs,
  classifyAnswer,
  IDEMPOTENCY_IN_PROGRESS_TYPE,
  IDEMPOTENCY_KEY_REUSED_TYPE,
  MAX_ATTEMPTS,
} from '../../src-shared/console/outbox.ts';
import { parseRetryAfter } from '../../src-shared/rules/retry.ts';
import { StaffActionSchema } from '../../src-shared/console/staff-actions.ts';
import type { OutboxRow } from '../../src-main/node/outbox/outbox-row.ts';
import { resultOf } from '../../src-main/node/sync/send-action.ts';

describe('classifyAnswer', () => {
  it.each([
    [null, undefined, 'retry'],
    [200, undefined, 'applied'],
    [201, undefined, 'applied'],
    [204, undefined, 'applied'],
    [401, undefined, 'blocked_auth'],
    [412, undefined, 'conflict'],
    [409, IDEMPOTENCY_IN_PROGRESS_TYPE, 'retry'],
    [409, 'about:blank', 'conflict'],
    [422, IDEMPOTENCY_KEY_REUSED_TYPE, 'failed'],
    [422, 'about:blank', 'rejected'],
    [400, undefined, 'rejected'],
    [403, undefined, 'rejected'],
    [404, undefined, 'rejected'],
    [410, undefined, 'rejected'],
    [413, undefined, 'rejected'],
    [408, undefined, 'retry'],
    [425, undefined, 'retry'],
    [429, undefined, 'retry'],
    [500, undefined, 'retry'],
    [502, undefined, 'retry'],
    [503, undefined, 'retry'],
  ] as const)('%s %s → %s', (status, type, outcome) => {
    expect(classifyAnswer(status, type)).toBe(outcome);
  });
});

describe('backoff', () => {
  it('doubles from 2 s with full jitter, capped at 15 minutes', () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(n, top))).toEqual([1999, 3999, 7999, 15999]);
    expect(backoffDelayMs(30, top)).toBe(Math.floor(0.999999 * BACKOFF_CAP_MS));
    expect(backoffDelayMs(5, () => 0)).toBe(0);
    expect(backoffDelayMs(1, () => 0.5)).toBe(BACKOFF_BASE_MS / 2);
  });

  it('honours a longer Retry-After, and keeps the backoff when it is longer', () => {
    expect(backoffDelayMs(1, () => 0.5, 30_000)).toBe(30_000);
    expect(backoffDelayMs(10, () => 0.999, 1000)).toBeGreaterThan(1000);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-11-23T10:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Mon, 23 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Mon, 23 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });
});

function row(attempts: number): OutboxRow {
  const action = StaffActionSchema.parse({ kind: 'petition.setStatus', petitionId: 3, baseVersion: 2, status: 'closed' });
  return { seq: 1, id: 'r', idempotencyKey: 'k', actorUserId: '2000', action, batchId: null, state: 'sending', attempts, entry: null as never };
}

const problem = (status: number, extra: Record<string, unknown> = {}) =>
  new ApiError(status, `detail ${status}`, { type: 'about:blank', title: 'x', status, detail: `detail ${status}`, ...extra } as never, extra.retryAfter as string | null ?? null);

describe('resultOf: what each answer does to the row', () => {
  const context = { now: 1_000_000, random: () => 0.5 };

  it('applied with the body on success', () => {
    expect(resultOf(row(1), { ok: true, body: { id: 3 } }, context)).toEqual({ state: 'applied', status: 200, result: { id: 3 } });
  });

  it('waits for the backend, with no backoff of its own, when it was not available (no answer, 502, 504, a 503 other than maintenance)', () => {
    expect(resultOf(row(2), { ok: false, error: new NetworkError(new Error('ECONNREFUSED')) }, context)).toEqual({
      state: 'retry_wait', status: null, error: 'The server could not be reached', nextAttemptAt: 1_000_000,
    });
    for (const status of [502, 504]) {
      expect(resultOf(row(3), { ok: false, error: problem(status) }, context)).toEqual({ state: 'retry_wait', status, error: `detail ${status}`, nextAttemptAt: 1_000_000 });
    }
    const databaseDown = new ApiError(503, 'The database is not available', null, '2');
    expect(resultOf(row(1), { ok: false, error: databaseDown }, context)).toMatchObject({ state: 'retry_wait', nextAttemptAt: 1_000_000 });
    // However many times: the backend being away is not the action's fault.
    expect(resultOf(row(MAX_ATTEMPTS + 5), { ok: false, error: new NetworkError(null) }, context)).toMatchObject({ state: 'retry_wait' });
  });

  it('backs off, honouring Retry-After, after an answer from a working backend (maintenance, 429, 500, 409 in progress)', () => {
    const busy = new ApiError(503, 'Site Under Maintenance', null, '60');
    expect(resultOf(row(1), { ok: false, error: busy }, context)).toMatchObject({ state: 'retry_wait', status: 503, nextAttemptAt: 1_000_000 + 60_000 });
    expect(resultOf(row(2), { ok: false, error: problem(500) }, context)).toMatchObject({ state: 'retry_wait', status: 500, nextAttemptAt: 1_000_000 + 2000 });
    expect(resultOf(row(3), { ok: false, error: problem(429) }, context)).toMatchObject({ state: 'retry_wait', status: 429, nextAttemptAt: 1_000_000 + 4000 });
    const inProgress = new ApiError(409, 'still running', { type: IDEMPOTENCY_IN_PROGRESS_TYPE } as never, '1');
    expect(resultOf(row(1), { ok: false, error: inProgress }, context)).toMatchObject({ state: 'retry_wait', status: 409 });
  });

  it('failed once the attempts are used up after answers from a working backend, never dropped', () => {
    expect(resultOf(row(MAX_ATTEMPTS), { ok: false, error: problem(500) }, context)).toMatchObject({
      state: 'failed', error: expect.stringContaining(`Gave up after ${MAX_ATTEMPTS} attempts`),
    });
  });

  it('conflict carries the server’s petition from a 412; rejected carries the detail; 401 blocks', () => {
    const petition = {
      id: 3, title: 'T', description: 'D', creator: 'C', creator_id: null, tags: [], category: 'General', termId: null,
      status: 'government_response', signatures: 12, created: '2026-01-01T00:00:00.000Z', closureReason: null, closedAt: null,
      governmentResponse: 'Theirs', governmentResponseMeta: null, debateInfo: null, debateInfoMeta: null, version: 3,
    };
    expect(resultOf(row(1), { ok: false, error: problem(412, { petition }) }, context)).toEqual({
      state: 'conflict', status: 412, error: 'detail 412', serverPetition: petition,
    });
    expect(resultOf(row(1), { ok: false, error: problem(409) }, context)).toMatchObject({ state: 'conflict', serverPetition: null });
    expect(resultOf(row(1), { ok: false, error: problem(403) }, context)).toEqual({ state: 'rejected', status: 403, error: 'detail 403' });
    expect(resultOf(row(1), { ok: false, error: problem(422, { type: IDEMPOTENCY_KEY_REUSED_TYPE }) }, context)).toMatchObject({ state: 'failed', status: 422 });
    expect(resultOf(row(1), { ok: false, error: problem(401) }, context)).toEqual({ state: 'blocked_auth', status: 401, error: 'detail 401' });
  });
});
