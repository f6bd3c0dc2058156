/**
 * What the console's sync needs from the API beyond single calls: the bulk status override with
 * per-item results, the queues' "what changed since" read, and Idempotency-Key under concurrency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_IN_PROGRESS_TYPE, IDEMPOTENCY_KEY_REUSED_TYPE } from '../../src-shared/console/outbox.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { Petition, Problem } from '../../src-shared/domain/schemas.ts';
import type { BulkStatusResponse, QueueChanges } from '../../src-shared/domain/sync-schemas.ts';
import { BULK_KEY_HEADER_ERROR, BULK_STATUS_PATH } from '../../src-server/staff/bulk-status-routes.ts';
import { BAD_CURSOR_ERROR, QUEUE_CHANGES_PATH } from '../../src-server/staff/queue-changes-routes.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { auditRows, body, petitionRow, RESPONSE_BODY, seedStaffPetition, signInEveryone, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
});
afterAll(async () => api.close());

function bulk(items: object[], cookie = cookies.admin, headers: Record<string, string> = {}) {
  return api.request({ method: 'POST', url: BULK_STATUS_PATH, payload: { items }, cookie, headers });
}

async function statusAudits(id: number) {
  return (await auditRows(api)).filter((row) => row.action === 'petition.set_status' && row.target_id === String(id));
}

describe('POST /api/petitions/bulk-status', () => {
  it('answers each item on its own: applied, unchanged, conflict, not found', async () => {
    const applied = await seedStaffPetition(api, { version: 3 });
    const unchanged = await seedStaffPetition(api, { status: 'closed', version: 4, closedAt: '2026-03-02T00:00:00.000Z', closureReason: 'term_ended' });
    const stale = await seedStaffPetition(api, { version: 7 });
    const response = await bulk([
      { petitionId: applied, status: 'closed', expectedVersion: 3 },
      { petitionId: unchanged, status: 'closed', expectedVersion: 1 },
      { petitionId: stale, status: 'closed', expectedVersion: 6 },
      { petitionId: 987_654, status: 'closed' },
    ]);
    expect(response.statusCode).toBe(200);
    const { results } = body<BulkStatusResponse>(response);
    expect(results.map((r) => [r.petitionId, r.result, r.status])).toEqual([
      [applied, 'applied', 200],
      [unchanged, 'unchanged', 200],
      [stale, 'conflict', 412],
      [987_654, 'not_found', 404],
    ]);
    expect(results[0]?.petition).toMatchObject({ id: applied, status: 'closed', version: 4 });
    expect(results[1]?.petition).toMatchObject({ id: unchanged, version: 4, closureReason: 'term_ended' });
    expect(results[2]).toMatchObject({ detail: ERRORS.versionMismatch, petition: { id: stale, version: 7, status: 'open' } });
    expect(results[3]).toMatchObject({ detail: ERRORS.petitionNotFound, petition: null });

    // Only the applied item changed and was audited, like the single call.
    expect((await petitionRow(api, applied))?.closed_at).not.toBeNull();
    expect((await petitionRow(api, unchanged))?.version).toBe(4);
    expect((await petitionRow(api, stale))).toMatchObject({ version: 7, status: 'open' });
    expect(await statusAudits(applied)).toHaveLength(1);
    expect(await statusAudits(unchanged)).toHaveLength(0);
    expect(await statusAudits(stale)).toHaveLength(0);
    const [audit] = await statusAudits(applied);
    expect(JSON.parse(audit?.before ?? '{}')).toMatchObject({ status: 'open', version: 3 });
    expect(JSON.parse(audit?.after ?? '{}')).toMatchObject({ status: 'closed', version: 4 });
  });

  it('gives a minister forbidden per item, and refuses citizens and signed-out callers outright', async () => {
    const id = await seedStaffPetition(api);
    const minister = await bulk([{ petitionId: id, status: 'closed' }], cookies.rank6);
    expect(minister.statusCode).toBe(200);
    expect(body<BulkStatusResponse>(minister).results).toEqual([
      { petitionId: id, result: 'forbidden', status: 403, petition: null, detail: ERRORS.adminOnly, replayed: false },
    ]);
    const citizen = await bulk([{ petitionId: id, status: 'closed' }], cookies.citizen);
    expect(citizen.statusCode).toBe(403);
    expect(body(citizen).detail).toBe(ERRORS.staffOnly);
    expect((await api.request({ method: 'POST', url: BULK_STATUS_PATH, payload: { items: [{ petitionId: id, status: 'closed' }] } })).statusCode).toBe(401);
    expect((await petitionRow(api, id))?.status).toBe('open');
  });

  it('applies an item once per key, whether the key came in a batch or a single call', async () => {
    const a = await seedStaffPetition(api);
    const b = await seedStaffPetition(api);
    const items = [
      { petitionId: a, status: 'closed', expectedVersion: 1, idempotencyKey: 'bulk-a' },
      { petitionId: b, status: 'awaiting_government_response', expectedVersion: 1, idempotencyKey: 'bulk-b' },
    ];
    const first = body<BulkStatusResponse>(await bulk(items)).results;
    const again = body<BulkStatusResponse>(await bulk(items)).results;
    expect(first.map((r) => [r.result, r.replayed])).toEqual([['applied', false], ['applied', false]]);
    expect(again.map((r) => [r.result, r.replayed, r.petition?.version])).toEqual([['applied', true, 2], ['applied', true, 2]]);
    expect(await statusAudits(a)).toHaveLength(1);
    expect((await petitionRow(api, b))?.version).toBe(2);

    // A key first used by the single call replays in a batch, and the other way round.
    const c = await seedStaffPetition(api);
    const single = await api.request({ method: 'PATCH', url: `/api/petitions/${c}/status`, payload: { status: 'closed' }, headers: { 'idempotency-key': 'single-then-bulk', 'if-match': '"1"' }, cookie: cookies.admin });
    expect(single.statusCode).toBe(200);
    const fromBatch = body<BulkStatusResponse>(await bulk([{ petitionId: c, status: 'closed', expectedVersion: 1, idempotencyKey: 'single-then-bulk' }])).results[0];
    expect(fromBatch).toMatchObject({ result: 'applied', replayed: true, petition: { version: 2 } });
    const singleAfter = await api.request({ method: 'PATCH', url: `/api/petitions/${a}/status`, payload: { status: 'closed' }, headers: { 'idempotency-key': 'bulk-a', 'if-match': '"1"' }, cookie: cookies.admin });
    expect(singleAfter.statusCode).toBe(200);
    expect(singleAfter.headers['idempotent-replayed']).toBe('true');
    expect(await statusAudits(a)).toHaveLength(1);
    expect(await statusAudits(c)).toHaveLength(1);

    // The same key for another request is the client's bug, answered per item.
    const reused = body<BulkStatusResponse>(await bulk([{ petitionId: a, status: 'open', idempotencyKey: 'bulk-a' }])).results[0];
    expect(reused).toMatchObject({ result: 'key_reused', status: 422, detail: ERRORS.idempotencyMismatch });
    expect((await petitionRow(api, a))?.status).toBe('closed');
  });

  it('refuses a call-level Idempotency-Key, duplicate petitions, empty and oversized batches', async () => {
    const id = await seedStaffPetition(api);
    const withHeader = await bulk([{ petitionId: id, status: 'closed' }], cookies.admin, { 'idempotency-key': 'whole-call' });
    expect(withHeader.statusCode).toBe(400);
    expect(body(withHeader).detail).toBe(BULK_KEY_HEADER_ERROR);
    expect((await bulk([{ petitionId: id, status: 'closed' }, { petitionId: id, status: 'open' }])).statusCode).toBe(400);
    expect((await bulk([])).statusCode).toBe(400);
    expect((await bulk(Array.from({ length: 501 }, (_, i) => ({ petitionId: i + 1, status: 'closed' })))).statusCode).toBe(400);
    expect((await bulk([{ petitionId: id, status: 'archived' }])).statusCode).toBe(400);
    expect((await petitionRow(api, id))?.status).toBe('open');
  });
});

describe('GET /api/petitions/queue-changes', () => {
  const read = async (query = '', cookie = cookies.rank6) => api.request({ method: 'GET', url: `${QUEUE_CHANGES_PATH}${query}`, cookie });

  it('starts with the queues, then returns only what changed, with deletions', async () => {
    const fresh = await startTestApi();
    const minister = await fresh.signInAs('rank6');
    const leader = await fresh.signInAs('rank7');
    try {
      const awaitingResponse = await seedStaffPetition(fresh, { signatures: 12 });
      const awaitingDebate = await seedStaffPetition(fresh, { signatures: 21 });
      const quiet = await seedStaffPetition(fresh, { signatures: 3 });
      const answered = await seedStaffPetition(fresh, { signatures: 12, governmentResponse: 'Done.', status: 'government_response' });
      const first = (await fresh.request({ method: 'GET', url: QUEUE_CHANGES_PATH, cookie: minister })).json<QueueChanges>();
      expect(first.changes.map((c) => [c.petition.id, c.awaitingResponse, c.awaitingDebate]).sort()).toEqual(
        [[awaitingResponse, true, false], [awaitingDebate, true, true]].sort(),
      );
      expect(first).toMatchObject({ removed: [], reset: false, more: false });
      expect(first.changes.map((c) => c.petition.id)).not.toContain(quiet);
      expect(first.changes.map((c) => c.petition.id)).not.toContain(answered);

      const nothing = (await fresh.request({ method: 'GET', url: `${QUEUE_CHANGES_PATH}?since=${first.cursor}`, cookie: minister })).json<QueueChanges>();
      expect(nothing).toMatchObject({ changes: [], removed: [], reset: false, more: false });

      // A response leaves the response queue; a deletion is reported by id.
      await new Promise((resolve) => setTimeout(resolve, 5));
      const answer = await fresh.request({ method: 'POST', url: `/api/petitions/${awaitingResponse}/government-response`, payload: RESPONSE_BODY, cookie: minister });
      expect(answer.statusCode).toBe(200);
      expect((await fresh.request({ method: 'DELETE', url: `/api/petitions/${quiet}`, cookie: leader })).statusCode).toBe(200);
      const delta = (await fresh.request({ method: 'GET', url: `${QUEUE_CHANGES_PATH}?since=${nothing.cursor}`, cookie: minister })).json<QueueChanges>();
      expect(delta.changes.map((c) => [c.petition.id, c.awaitingResponse, c.awaitingDebate])).toEqual([[awaitingResponse, false, false]]);
      expect(delta.changes[0]?.petition.governmentResponse).toBe(RESPONSE_BODY.response_text);
      expect(delta.removed).toEqual([quiet]);

      const after = (await fresh.request({ method: 'GET', url: `${QUEUE_CHANGES_PATH}?since=${delta.cursor}`, cookie: minister })).json<QueueChanges>();
      expect(after).toMatchObject({ changes: [], removed: [] });
    } finally {
      await fresh.close();
    }
  });

  it('pages with limit and a moving cursor', async () => {
    const fresh = await startTestApi();
    const minister = await fresh.signInAs('rank6');
    try {
      const ids = [];
      for (let i = 0; i < 5; i += 1) ids.push(await seedStaffPetition(fresh, { signatures: 10 }));
      const seen: number[] = [];
      let query = '?limit=2';
      for (let page = 0; page < 5; page += 1) {
        const result = (await fresh.request({ method: 'GET', url: `${QUEUE_CHANGES_PATH}${query}`, cookie: minister })).json<QueueChanges>();
        seen.push(...result.changes.map((c) => c.petition.id));
        query = `?limit=2&since=${result.cursor}`;
        if (!result.more) break;
      }
      expect(seen.sort()).toEqual(ids.sort());
    } finally {
      await fresh.close();
    }
  });

  it('refuses a cursor it did not issue, and non-staff', async () => {
    const bad = await read('?since=not-a-cursor');
    expect(bad.statusCode).toBe(400);
    expect(body<Problem>(bad).detail).toBe(BAD_CURSOR_ERROR);
    expect((await read('', cookies.citizen)).statusCode).toBe(403);
    expect((await api.request({ method: 'GET', url: QUEUE_CHANGES_PATH })).statusCode).toBe(401);
  });
});

describe('Idempotency-Key under concurrency', () => {
  it('answers simultaneous first uses with one application and replays or 409s, never 500', async () => {
    const id = await seedStaffPetition(api);
    const request = { method: 'POST' as const, url: `/api/petitions/${id}/government-response`, payload: RESPONSE_BODY, headers: { 'idempotency-key': 'same-key-at-once', 'if-match': '"1"' }, cookie: cookies.rank6 };
    const responses = await Promise.all(Array.from({ length: 8 }, () => api.request(request)));
    const codes = responses.map((r) => r.statusCode);
    expect(codes.every((code) => code === 200 || code === 409)).toBe(true);
    expect(responses.filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    for (const conflict of responses.filter((r) => r.statusCode === 409)) {
      expect(body<Problem>(conflict)).toMatchObject({ type: IDEMPOTENCY_IN_PROGRESS_TYPE, detail: ERRORS.idempotencyInProgress });
      expect(conflict.headers['retry-after']).toBe('1');
    }
    const audits = (await auditRows(api)).filter((row) => row.action === 'government_response.add' && row.target_id === String(id));
    expect(audits).toHaveLength(1);
    const later = await api.request(request);
    expect(later.statusCode).toBe(200);
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(body<Petition>(later).version).toBe(2);
  });

  it('answers a key reused for another body with 422 and the key-reused problem type', async () => {
    const id = await seedStaffPetition(api);
    const first = await api.request({ method: 'PATCH', url: `/api/petitions/${id}/status`, payload: { status: 'closed' }, headers: { 'idempotency-key': 'reused-key' }, cookie: cookies.admin });
    expect(first.statusCode).toBe(200);
    const reused = await api.request({ method: 'PATCH', url: `/api/petitions/${id}/status`, payload: { status: 'open' }, headers: { 'idempotency-key': 'reused-key' }, cookie: cookies.admin });
    expect(reused.statusCode).toBe(422);
    expect(body<Problem>(reused)).toMatchObject({ type: IDEMPOTENCY_KEY_REUSED_TYPE, detail: ERRORS.idempotencyMismatch });
  });
});

describe('OpenAPI document', () => {
  it('describes both endpoints with an operationId, tags, security and their problems', async () => {
    const document = (await api.request({ method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, Record<string, unknown>>> }>();
    const bulkDoc = document.paths['/api/petitions/bulk-status']?.post;
    const changesDoc = document.paths['/api/petitions/queue-changes']?.get;
    expect(bulkDoc).toMatchObject({ operationId: 'setPetitionStatuses', tags: ['Petition administration'] });
    expect(changesDoc).toMatchObject({ operationId: 'getQueueChanges', tags: ['Petition administration'] });
    // Cookie session (with the CSRF header for the POST) or the console's bearer token.
    expect(bulkDoc?.security).toEqual(expect.arrayContaining([{ bearer: [] }, expect.objectContaining({ session: [] })]));
    expect(changesDoc?.security).toEqual(expect.arrayContaining([{ bearer: [] }, { session: [] }]));
    expect(Object.keys(bulkDoc?.responses as object)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '409', '503']));
    expect(Object.keys(changesDoc?.responses as object)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '503']));
  });
});
