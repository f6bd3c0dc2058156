/**
 * Bad input on every community-safety endpoint (docs/moderation.md): always a 4xx Problem with a
 * clear detail, never a 500, and never a write (no report, no decision, no reason changed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERATION_BULK_MAX_ITEMS, REPORT_DETAILS_MAX } from '../../src-shared/domain/moderation-constants.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { seedStaffPetition, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;
let petitionId: number;
let otherId: number;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
  petitionId = await seedStaffPetition(api, { creatorId: '1' });
  otherId = await seedStaffPetition(api, { creatorId: '1' });
});
afterAll(async () => api.close());

interface Endpoint {
  method: 'POST' | 'PUT' | 'GET' | 'DELETE';
  url: () => string;
  valid?: () => Record<string, unknown>;
  /** Bodies that are well-formed JSON but break the endpoint's own rules. */
  invalid?: () => unknown[];
  cookie: Role;
}

const ENDPOINTS: Record<string, Endpoint> = {
  report: {
    method: 'POST',
    url: () => `/api/petitions/${petitionId}/reports`,
    valid: () => ({ reason: 'spam' }),
    cookie: 'citizen',
    invalid: () => [
      { reason: 'rude' },
      { reason: 'other' },
      { reason: 'other', details: '   ' },
      { reason: 'other', details: 'x'.repeat(REPORT_DETAILS_MAX + 1) },
      { reason: 'other', details: 'hidden \u202e text' },
      { reason: 'duplicate' },
      { reason: 'duplicate', duplicateOf: null },
      { reason: 'duplicate', duplicateOf: 987_654 },
      { reason: 'spam', details: null, extra: 1 },
    ],
  },
  decision: {
    method: 'POST',
    url: () => `/api/petitions/${petitionId}/moderation`,
    valid: () => ({ decision: 'hide', reason: 'Checking' }),
    cookie: 'rank7',
    invalid: () => [
      { decision: 'delete' },
      { decision: 'hide' },
      { decision: 'hide', reason: '   ' },
      { decision: 'hide', reason: 'a\u0000b' },
      { decision: 'reject' },
      { decision: 'reject', reasonCode: 'Not A Code' },
      { decision: 'reject', reasonCode: 'no_such_reason' },
      { decision: 'keep', reason: 'not for keep' },
      { decision: 'restore', reasonCode: 'duplicate' },
    ],
  },
  bulk: {
    method: 'POST',
    url: () => '/api/petitions/bulk-moderation',
    valid: () => ({ items: [{ petitionId, action: { decision: 'keep' } }] }),
    cookie: 'rank7',
    invalid: () => [
      { items: [] },
      { items: Array.from({ length: MODERATION_BULK_MAX_ITEMS + 1 }, (_v, i) => ({ petitionId: i + 1, action: { decision: 'keep' } })) },
      { items: [{ petitionId, action: { decision: 'keep' } }, { petitionId, action: { decision: 'restore' } }] },
      { items: [{ petitionId, action: { decision: 'hide' } }] },
      { items: [{ petitionId, action: { decision: 'keep' }, idempotencyKey: 'has space' }] },
      { items: [{ petitionId, action: { decision: 'keep' }, expectedVersion: -1 }] },
    ],
  },
  'save rejection reason': {
    method: 'PUT',
    url: () => '/api/rejection-reasons/fuzz_reason',
    valid: () => ({ title: 'Fuzz', publicText: 'A fuzz reason.', hidden: false }),
    cookie: 'admin',
    invalid: () => [
      { title: '', publicText: 'Text', hidden: false },
      { title: 'Title', publicText: '  ', hidden: false },
      { title: 'x'.repeat(121), publicText: 'Text', hidden: false },
      { title: 'Title', publicText: 'Text' },
      { title: 'Title', publicText: 'Text', hidden: 'yes' },
    ],
  },
};

async function expectRefusedWithoutWrites(request: Parameters<TestApi['request']>[0], cookie: Role, expected?: number): Promise<void> {
  const before = await writeSnapshot(api);
  const response = await api.request({ cookie: cookies[cookie], ...request });
  expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, response.body).toBeLessThan(500);
  if (expected) expect(response.statusCode, response.body).toBe(expected);
  expect(response.headers['content-type']).toContain('application/problem+json');
  expect(String(response.json<{ detail: unknown }>().detail).length).toBeGreaterThan(3);
  expect(await writeSnapshot(api)).toEqual(before);
}

describe.each(Object.entries(ENDPOINTS))('%s', (_name, endpoint) => {
  const send = (payload: unknown, headers: Record<string, string> = {}) => ({ method: endpoint.method, url: endpoint.url(), payload: payload as string, headers });

  it('refuses malformed JSON, empty and non-object bodies', async () => {
    await expectRefusedWithoutWrites(send('{"broken":', { 'content-type': 'application/json' }), endpoint.cookie, 400);
    for (const payload of ['', 'null', '[]', '"text"', '42']) {
      await expectRefusedWithoutWrites(send(payload, { 'content-type': 'application/json' }), endpoint.cookie, 400);
    }
  });

  it('refuses a body that is not JSON, and an oversized one', async () => {
    await expectRefusedWithoutWrites(send('reason=spam', { 'content-type': 'application/x-www-form-urlencoded' }), endpoint.cookie, 415);
    await expectRefusedWithoutWrites(send({ ...endpoint.valid?.(), padding: 'x'.repeat(70 * 1024) }), endpoint.cookie, 413);
  });

  it('refuses unknown fields and wrong types in every field', async () => {
    const valid = endpoint.valid?.() ?? {};
    await expectRefusedWithoutWrites(send({ ...valid, isAdmin: true }), endpoint.cookie, 400);
    for (const field of Object.keys(valid)) {
      for (const wrong of [{ nested: true }, [1, 2], 12345, true, null]) {
        if (typeof valid[field] === typeof wrong && !Array.isArray(wrong) && !Array.isArray(valid[field])) continue;
        await expectRefusedWithoutWrites(send({ ...valid, [field]: wrong }), endpoint.cookie, 400);
      }
    }
  });

  it('refuses bodies that break its own rules', async () => {
    for (const payload of endpoint.invalid?.() ?? []) await expectRefusedWithoutWrites(send(payload), endpoint.cookie, 400);
  });
});

describe('queries and path parameters', () => {
  it('refuses bad queue queries, bad similar-petition titles and bad reason codes with 400', async () => {
    for (const url of ['/api/moderation/queue?view=all', '/api/moderation/queue?pageSize=51', '/api/moderation/queue?page=0', '/api/moderation/queue?extra=1']) {
      await expectRefusedWithoutWrites({ method: 'GET', url }, 'rank7', 400);
    }
    await expectRefusedWithoutWrites({ method: 'GET', url: `/api/petitions/similar?title=${'x'.repeat(601)}` }, 'citizen', 400);
    await expectRefusedWithoutWrites({ method: 'GET', url: '/api/petitions/similar?title=a&title=b' }, 'citizen', 400);
    for (const code of ['A', 'UPPER', '1abc', 'a-b', '%20', 'x'.repeat(41)]) {
      await expectRefusedWithoutWrites({ method: 'PUT', url: `/api/rejection-reasons/${code}`, payload: ENDPOINTS['save rejection reason']!.valid!() }, 'admin', 400);
      await expectRefusedWithoutWrites({ method: 'DELETE', url: `/api/rejection-reasons/${code}` }, 'admin', 400);
    }
  });

  it('left both petitions untouched', async () => {
    for (const id of [petitionId, otherId]) {
      const row = await api.context.db.selectFrom('petitions').select(['version', 'moderation_state']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toEqual({ version: 1, moderation_state: null });
    }
  });
});
