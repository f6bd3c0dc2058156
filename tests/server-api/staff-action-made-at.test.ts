/**
 * X-Action-Made-At: the console's outbox says when a staff action was made; the audit log keeps it
 * beside the time it was applied. A bad value is refused with 400 before anything is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MADE_AT_FUTURE_SKEW_MS, MADE_AT_MAX_AGE_MS } from '../../src-shared/console/action-made-at.ts';
import type { AuditLogPage } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { auditRows, body, RESPONSE_BODY, seedStaffPetition, writeSnapshot } from './staff-fixtures.ts';

let api: TestApi;
let admin: string;
let rank6: string;
const APPLIED = new Date('2026-06-10T12:00:00.000Z');

beforeAll(async () => {
  api = await startTestApi();
  admin = await api.signInAs('admin');
  rank6 = await api.signInAs('rank6');
  api.setNow(APPLIED);
});
afterAll(async () => api.close());

const respond = (petitionId: number, madeAt?: string | string[], key?: string) =>
  api.request({
    method: 'POST',
    url: `/api/petitions/${petitionId}/government-response`,
    payload: RESPONSE_BODY,
    cookie: rank6,
    headers: { ...(madeAt === undefined ? {} : { 'x-action-made-at': madeAt }), ...(key ? { 'idempotency-key': key } : {}) },
  });

async function latestAudit() {
  return (await auditRows(api)).at(-1)!;
}

describe('X-Action-Made-At', () => {
  it('is kept in the audit log beside the time the action was applied', async () => {
    const id = await seedStaffPetition(api, { signatures: 12, status: 'awaiting_government_response' });
    const madeAt = '2026-06-10T09:15:30.000Z';
    expect((await respond(id, madeAt)).statusCode).toBe(200);
    expect(await latestAudit()).toMatchObject({ action: 'government_response.add', target_id: String(id), at: APPLIED.toISOString(), made_at: madeAt });
    const { items } = body<AuditLogPage>(await api.request({ method: 'GET', url: '/api/audit-log?limit=1', cookie: admin }));
    expect(items[0]).toMatchObject({ at: APPLIED.toISOString(), made_at: madeAt });
  });

  it('accepts an offset and stores the instant in UTC', async () => {
    const id = await seedStaffPetition(api);
    expect((await api.request({ method: 'PATCH', url: `/api/petitions/${id}/status`, payload: { status: 'closed' }, cookie: admin, headers: { 'x-action-made-at': '2026-06-10T10:00:00+01:00' } })).statusCode).toBe(200);
    expect(await latestAudit()).toMatchObject({ action: 'petition.set_status', made_at: '2026-06-10T09:00:00.000Z' });
  });

  it('leaves made_at empty for an action made online (no header)', async () => {
    const id = await seedStaffPetition(api, { signatures: 12, status: 'awaiting_government_response' });
    expect((await respond(id)).statusCode).toBe(200);
    expect((await latestAudit()).made_at).toBeNull();
  });

  it('never records a made-at after the applied-at (a clock slightly ahead)', async () => {
    const id = await seedStaffPetition(api, { signatures: 12, status: 'awaiting_government_response' });
    const ahead = new Date(APPLIED.getTime() + MADE_AT_FUTURE_SKEW_MS - 1000).toISOString();
    expect((await respond(id, ahead)).statusCode).toBe(200);
    expect((await latestAudit()).made_at).toBe(APPLIED.toISOString());
  });

  it('goes with every item of a bulk status override', async () => {
    const first = await seedStaffPetition(api);
    const second = await seedStaffPetition(api);
    const madeAt = '2026-06-09T18:00:00.000Z';
    const response = await api.request({
      method: 'POST',
      url: '/api/petitions/bulk-status',
      payload: { items: [{ petitionId: first, status: 'closed' }, { petitionId: second, status: 'closed' }] },
      cookie: admin,
      headers: { 'x-action-made-at': madeAt },
    });
    expect(response.statusCode).toBe(200);
    const rows = (await auditRows(api)).filter((row) => [String(first), String(second)].includes(row.target_id ?? ''));
    expect(rows.map((row) => row.made_at)).toEqual([madeAt, madeAt]);
  });

  it.each([
    ['not a time', 'yesterday', 'ISO 8601'],
    ['a date without a time', '2026-06-10', 'ISO 8601'],
    ['a time without a zone', '2026-06-10T09:00:00', 'ISO 8601'],
    ['beyond the clock skew in the future', new Date(APPLIED.getTime() + MADE_AT_FUTURE_SKEW_MS + 60_000).toISOString(), 'in the future'],
    ['older than the outbox allows', new Date(APPLIED.getTime() - MADE_AT_MAX_AGE_MS - 60_000).toISOString(), 'more than 30 days ago'],
    // Two headers arrive joined ("a, b"): not one time either.
    ['sent twice', ['2026-06-10T09:00:00Z', '2026-06-10T09:00:01Z'], 'ISO 8601'],
  ])('refuses %s with 400 and writes nothing', async (_label, value, words) => {
    const id = await seedStaffPetition(api, { signatures: 12, status: 'awaiting_government_response' });
    const before = await writeSnapshot(api);
    const response = await respond(id, value, `made-at-${String(_label).replaceAll(' ', '-')}`);
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(body<{ detail: string }>(response).detail).toContain(words);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('is refused on a bulk override too, before any item is applied', async () => {
    const id = await seedStaffPetition(api);
    const before = await writeSnapshot(api);
    const response = await api.request({
      method: 'POST',
      url: '/api/petitions/bulk-status',
      payload: { items: [{ petitionId: id, status: 'closed' }] },
      cookie: admin,
      headers: { 'x-action-made-at': 'soon' },
    });
    expect(response.statusCode).toBe(400);
    expect(await writeSnapshot(api)).toEqual(before);
  });
});
