/** If-Match and Idempotency-Key: what keeps the offline console's replayed actions safe. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_IN_PROGRESS_TYPE } from '../../src-shared/console/outbox.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { Petition, Problem } from '../../src-shared/domain/schemas.ts';
import { IDEMPOTENCY_KEY_FORMAT_ERROR, pruneIdempotencyKeys } from '../../src-server/staff/idempotency.ts';
import { IF_MATCH_FORMAT_ERROR, parseIfMatch } from '../../src-server/staff/if-match.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { countRows } from '../support/fixtures.ts';
import {
  auditRows,
  body,
  chatMessageRows,
  petitionRow,
  RESPONSE_BODY,
  seedStaffPetition,
  seedStaffTerm,
  signInEveryone,
  writeSnapshot,
  type Role,
} from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
});
afterAll(async () => api.close());

interface Mutation {
  name: string;
  method: 'PATCH' | 'POST' | 'DELETE';
  path: (id: number) => string;
  payload?: object;
  /** Prepares the petition so the mutation can apply. */
  seed?: Parameters<typeof seedStaffPetition>[1];
}

const DEBATE = { status: 'scheduled', date: '2026-05-12', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null };

const PETITION_MUTATIONS: Mutation[] = [
  { name: 'assign', method: 'PATCH', path: (id) => `/api/petitions/${id}`, payload: { termId: null } },
  { name: 'status', method: 'PATCH', path: (id) => `/api/petitions/${id}/status`, payload: { status: 'closed' } },
  { name: 'delete', method: 'DELETE', path: (id) => `/api/petitions/${id}` },
  { name: 'response add', method: 'POST', path: (id) => `/api/petitions/${id}/government-response`, payload: RESPONSE_BODY },
  { name: 'response remove', method: 'DELETE', path: (id) => `/api/petitions/${id}/government-response`, seed: { governmentResponse: 'Yes.' } },
  { name: 'debate add', method: 'POST', path: (id) => `/api/petitions/${id}/debate-info`, payload: { status: 'scheduled', date: '2026-05-12' } },
  { name: 'debate remove', method: 'DELETE', path: (id) => `/api/petitions/${id}/debate-info`, seed: { debateInfo: DEBATE } },
];

function send(mutation: Mutation, id: number, headers: Record<string, string> = {}, cookie = cookies.admin) {
  return api.request({ method: mutation.method, url: mutation.path(id), headers, cookie, ...(mutation.payload ? { payload: mutation.payload } : {}) });
}

describe('If-Match', () => {
  it('parses "3", 3, W/"3", lists and *', () => {
    expect(parseIfMatch('"3"')).toEqual([3]);
    expect(parseIfMatch('3')).toEqual([3]);
    expect(parseIfMatch('W/"3"')).toEqual([3]);
    expect(parseIfMatch('"2", "3"')).toEqual([2, 3]);
    expect(parseIfMatch('*')).toBeNull();
    expect(parseIfMatch(undefined)).toBeNull();
    expect(() => parseIfMatch('"abc"')).toThrow(IF_MATCH_FORMAT_ERROR);
  });

  it.each(PETITION_MUTATIONS)('$name: a stale version gets 412 with the current petition, and nothing changes', async (mutation) => {
    const id = await seedStaffPetition(api, { version: 5, ...mutation.seed });
    const before = await writeSnapshot(api);
    const response = await send(mutation, id, { 'if-match': '"4"' });
    expect(response.statusCode).toBe(412);
    const problem = body<Problem>(response);
    expect(problem.detail).toBe(ERRORS.versionMismatch);
    expect(problem.petition).toMatchObject({ id, version: 5 });
    expect(response.headers.etag).toBe('"5"');
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it.each(PETITION_MUTATIONS)('$name: the current version (any accepted spelling) or no If-Match applies', async (mutation) => {
    for (const header of ['"5"', '5', 'W/"5"', null]) {
      const id = await seedStaffPetition(api, { version: 5, ...mutation.seed });
      const response = await send(mutation, id, header === null ? {} : { 'if-match': header });
      expect(response.statusCode).toBe(200);
      if (mutation.name === 'delete') {
        expect(await petitionRow(api, id)).toBeUndefined();
      } else {
        expect(body<Petition>(response).version).toBe(6);
        expect(response.headers.etag).toBe('"6"');
      }
    }
  });

  it('refuses a malformed If-Match with 400', async () => {
    const id = await seedStaffPetition(api);
    const response = await api.request({ method: 'PATCH', url: `/api/petitions/${id}/status`, payload: { status: 'closed' }, headers: { 'if-match': 'version-1' }, cookie: cookies.admin });
    expect(response.statusCode).toBe(400);
    expect(body(response).detail).toBe(IF_MATCH_FORMAT_ERROR);
    expect((await petitionRow(api, id))?.status).toBe('open');
  });

  it('lets two consoles race: the second edit based on the same version is refused', async () => {
    const id = await seedStaffPetition(api);
    const first = api.request({ method: 'POST', url: `/api/petitions/${id}/government-response`, payload: RESPONSE_BODY, headers: { 'if-match': '"1"' }, cookie: cookies.rank6 });
    const second = api.request({ method: 'POST', url: `/api/petitions/${id}/government-response`, payload: { ...RESPONSE_BODY, response_text: 'Other' }, headers: { 'if-match': '"1"' }, cookie: cookies.rank8 });
    const codes = (await Promise.all([first, second])).map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 412]);
    expect((await petitionRow(api, id))?.version).toBe(2);
  });
});

describe('Idempotency-Key', () => {
  it('replays a response add without applying it again', async () => {
    const id = await seedStaffPetition(api);
    const audit = (await auditRows(api)).length;
    const queued = (await chatMessageRows(api)).length;
    const request = { method: 'POST' as const, url: `/api/petitions/${id}/government-response`, payload: RESPONSE_BODY, headers: { 'idempotency-key': 'console-op-1', 'if-match': '"1"' }, cookie: cookies.rank6 };
    const first = await api.request(request);
    const replay = await api.request(request);
    expect(first.statusCode).toBe(200);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(first.json());
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers.etag).toBe('"2"');
    expect((await petitionRow(api, id))?.version).toBe(2);
    expect((await auditRows(api)).length).toBe(audit + 1);
    expect((await chatMessageRows(api)).length).toBe(queued + 1);
  });

  it('replays a delete: same answer, one audit row, one chat message', async () => {
    const id = await seedStaffPetition(api);
    const audit = (await auditRows(api)).length;
    const queued = (await chatMessageRows(api)).length;
    const request = { method: 'DELETE' as const, url: `/api/petitions/${id}`, headers: { 'idempotency-key': 'delete-once' }, cookie: cookies.rank7 };
    const first = await api.request(request);
    const replay = await api.request(request);
    expect(first.statusCode).toBe(200);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ message: 'Petition deleted successfully' });
    expect((await auditRows(api)).length).toBe(audit + 1);
    expect((await chatMessageRows(api)).length).toBe(queued + 1);
  });

  it('replays term creation (201) and a ban without duplicating them', async () => {
    const terms = await countRows(api, 'terms');
    const create = { method: 'POST' as const, url: '/api/parliamentary-terms', payload: { name: 'Term 90', startDate: '2028-01-01', endDate: '2028-12-31' }, headers: { 'idempotency-key': 'term-90' }, cookie: cookies.admin };
    const first = await api.request(create);
    const replay = await api.request({ ...create, payload: { endDate: '2028-12-31', startDate: '2028-01-01', name: 'Term 90' } });
    expect([first.statusCode, replay.statusCode]).toEqual([201, 201]);
    expect(replay.json()).toEqual(first.json());
    expect(await countRows(api, 'terms')).toBe(terms + 1);

    const audit = (await auditRows(api)).length;
    const ban = { method: 'PUT' as const, url: '/api/bans/123456', payload: { reason: 'Spam' }, headers: { 'idempotency-key': 'ban-1' }, cookie: cookies.admin };
    expect((await api.request(ban)).statusCode).toBe(201);
    expect((await api.request(ban)).statusCode).toBe(201);
    expect((await auditRows(api)).length).toBe(audit + 1);
  });

  it('a replay answers as first time even though its If-Match is now stale', async () => {
    const id = await seedStaffPetition(api);
    const request = { method: 'PATCH' as const, url: `/api/petitions/${id}/status`, payload: { status: 'closed' }, headers: { 'idempotency-key': 'close-1', 'if-match': '"1"' }, cookie: cookies.admin };
    expect((await api.request(request)).statusCode).toBe(200);
    const replay = await api.request(request);
    expect(replay.statusCode).toBe(200);
    expect(body<Petition>(replay).version).toBe(2);
  });

  it('the same key for a different request is refused with 422 and applies nothing', async () => {
    const id = await seedStaffPetition(api);
    const other = await seedStaffPetition(api);
    const headers = { 'idempotency-key': 'reused-key' };
    await api.request({ method: 'PATCH', url: `/api/petitions/${id}/status`, payload: { status: 'closed' }, headers, cookie: cookies.admin });
    const before = await writeSnapshot(api);
    const differentBody = await api.request({ method: 'PATCH', url: `/api/petitions/${id}/status`, payload: { status: 'open' }, headers, cookie: cookies.admin });
    const differentPath = await api.request({ method: 'PATCH', url: `/api/petitions/${other}/status`, payload: { status: 'closed' }, headers, cookie: cookies.admin });
    for (const response of [differentBody, differentPath]) {
      expect(response.statusCode).toBe(422);
      expect(body(response).detail).toBe(ERRORS.idempotencyMismatch);
    }
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('keys belong to their actor: two users may use the same key', async () => {
    const a = await seedStaffPetition(api);
    const b = await seedStaffPetition(api);
    const headers = { 'idempotency-key': 'shared-key' };
    const byAdmin = await api.request({ method: 'DELETE', url: `/api/petitions/${a}`, headers, cookie: cookies.admin });
    const byLeader = await api.request({ method: 'DELETE', url: `/api/petitions/${b}`, headers, cookie: cookies.rank7 });
    expect([byAdmin.statusCode, byLeader.statusCode]).toEqual([200, 200]);
    expect(await petitionRow(api, a)).toBeUndefined();
    expect(await petitionRow(api, b)).toBeUndefined();
  });

  it('a refused request is not stored, so its retry is judged afresh', async () => {
    const id = await seedStaffPetition(api);
    const request = { method: 'DELETE' as const, url: `/api/petitions/${id}/government-response`, headers: { 'idempotency-key': 'remove-later' }, cookie: cookies.rank6 };
    expect((await api.request(request)).statusCode).toBe(409);
    await api.request({ method: 'POST', url: `/api/petitions/${id}/government-response`, payload: RESPONSE_BODY, cookie: cookies.rank6 });
    const retry = await api.request(request);
    expect(retry.statusCode).toBe(200);
    expect(body<Petition>(retry).governmentResponse).toBeNull();
  });

  it('parallel duplicates apply once', async () => {
    const id = await seedStaffPetition(api);
    const audit = (await auditRows(api)).length;
    const request = { method: 'POST' as const, url: `/api/petitions/${id}/debate-info`, payload: { status: 'scheduled', date: '2026-05-12' }, headers: { 'idempotency-key': 'burst' }, cookie: cookies.rank8 };
    const responses = await Promise.all(Array.from({ length: 8 }, () => api.request(request)));
    // A duplicate that overlaps the first (the engine runs them concurrently, as PostgreSQL does) is
    // told to retry (409, in progress); one that follows it replays the stored reply.
    const applied = responses.filter((r) => r.statusCode === 200);
    const retryLater = responses.filter((r) => r.statusCode === 409);
    expect(applied.length + retryLater.length).toBe(responses.length);
    expect(applied.length).toBeGreaterThanOrEqual(1);
    for (const r of retryLater) expect(body<Problem>(r).type).toBe(IDEMPOTENCY_IN_PROGRESS_TYPE);
    expect(new Set(applied.map((r) => r.body)).size).toBe(1);
    expect((await petitionRow(api, id))?.version).toBe(2);
    expect((await auditRows(api)).length).toBe(audit + 1);
  });

  it.each([['x'.repeat(256)], ['has space'], ['naïve']])('refuses the malformed key %j with 400', async (key) => {
    const id = await seedStaffPetition(api);
    const response = await api.request({ method: 'PATCH', url: `/api/petitions/${id}/status`, payload: { status: 'closed' }, headers: { 'idempotency-key': key }, cookie: cookies.admin });
    expect(response.statusCode).toBe(400);
    expect(body(response).detail).toBe(IDEMPOTENCY_KEY_FORMAT_ERROR);
    expect((await petitionRow(api, id))?.status).toBe('open');
  });

  it('old keys are pruned after the retention period', async () => {
    const id = await seedStaffPetition(api);
    api.setNow(new Date('2026-01-01T00:00:00Z'));
    await api.request({ method: 'PATCH', url: `/api/petitions/${id}/status`, payload: { status: 'closed' }, headers: { 'idempotency-key': 'ancient' }, cookie: cookies.admin });
    api.setNow(null);
    const stored = () => api.context.db.selectFrom('idempotency_keys').select('key').where('key', '=', 'ancient').execute();
    expect(await stored()).toHaveLength(1);
    expect(await pruneIdempotencyKeys(api.context.db, new Date('2026-01-15T00:00:00Z'))).toBe(0);
    expect(await pruneIdempotencyKeys(api.context.db, new Date('2026-02-15T00:00:00Z'))).toBeGreaterThanOrEqual(1);
    expect(await stored()).toHaveLength(0);
  });
});

describe('ETag', () => {
  it('is sent on every petition-returning staff reply', async () => {
    const termId = await seedStaffTerm(api);
    const id = await seedStaffPetition(api);
    const assign = await api.request({ method: 'PATCH', url: `/api/petitions/${id}`, payload: { termId }, cookie: cookies.admin });
    expect(assign.headers.etag).toBe(`"${body<Petition>(assign).version}"`);
  });
});
