/**
 * Completing a term closes its open petitions as one audited action; the term becoming current again
 * (by edit or by its dates) reopens exactly those, with their automatic statuses. The preview route
 * tells the administrator beforehand. Also: deleting a term's count, and unique term names.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { VALIDATION } from '../../src-shared/domain/messages.ts';
import type { Term, TermChangePreview } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { auditRows, body, petitionRow, seedStaffPetition, seedStaffTerm, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

const NOW = new Date('2026-06-15T12:00:00.000Z');

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
});
afterAll(async () => api.close());
beforeEach(async () => {
  api.setNow(NOW);
  await api.context.db.deleteFrom('petitions').execute();
  await api.context.db.deleteFrom('terms').execute();
  await api.context.db.deleteFrom('audit_log').execute();
});

function patchTerm(id: number, payload: object) {
  return api.request({ method: 'PATCH', url: `/api/parliamentary-terms/${id}`, payload, cookie: cookies.admin });
}

async function preview(id: number, payload: object, role: Role = 'admin') {
  return api.request({ method: 'POST', url: `/api/parliamentary-terms/${id}/preview`, payload, cookie: cookies[role] });
}

function checkExpired() {
  return api.request({ method: 'POST', url: '/api/petitions/check-expired' });
}

async function termAudits(action: string) {
  return (await auditRows(api)).filter((row) => row.action === action);
}

/**
 * A current term with four open petitions of different facts, plus two already closed ones that
 * completion must neither count nor ever reopen.
 */
async function termWithPetitions(term: Parameters<typeof seedStaffTerm>[1] = {}) {
  const termId = await seedStaffTerm(api, { name: 'Term 87', startDate: '2026-01-01', endDate: '2026-12-31', status: null, ...term });
  const plain = await seedStaffPetition(api, { termId, signatures: 10, status: 'awaiting_government_response' });
  const answered = await seedStaffPetition(api, { termId, signatures: 12, status: 'government_response', governmentResponse: 'We will.' });
  const scheduled = await seedStaffPetition(api, {
    termId,
    signatures: 21,
    status: 'awaiting_debate_in_parliament',
    debateInfo: { status: 'scheduled', date: '2026-12-10' },
  });
  // An override that the facts would not give: reopening gives the automatic status back.
  const overridden = await seedStaffPetition(api, { termId, signatures: 11, status: 'debated_in_parliament' });
  const insufficient = await seedStaffPetition(api, {
    termId,
    signatures: 2,
    status: 'closed',
    closureReason: 'three_weeks_insufficient_signatures',
    closedAt: '2026-05-01T00:00:00.000Z',
  });
  const byHand = await seedStaffPetition(api, { termId, signatures: 15, status: 'closed', closedAt: '2026-05-02T00:00:00.000Z' });
  return { termId, open: [plain, answered, scheduled, overridden], plain, answered, scheduled, overridden, insufficient, byHand };
}

describe('completing a term by edit', () => {
  it('is previewed without any change, then closes the open petitions as one audited action', async () => {
    const t = await termWithPetitions();
    const before = await writeSnapshot(api);
    const answer = await preview(t.termId, { status: 'completed' });
    expect(answer.statusCode).toBe(200);
    expect(body<TermChangePreview>(answer)).toEqual({ status: 'completed', petitionsToClose: 4, petitionsToReopen: 0, petitionsInTerm: 6 });
    expect(await writeSnapshot(api)).toEqual(before);

    const response = await patchTerm(t.termId, { status: 'completed' });
    expect(response.statusCode).toBe(200);
    for (const id of t.open) {
      expect(await petitionRow(api, id)).toMatchObject({ status: 'closed', closure_reason: 'term_ended', closed_at: NOW.toISOString() });
    }
    expect(await petitionRow(api, t.insufficient)).toMatchObject({ closure_reason: 'three_weeks_insufficient_signatures', closed_at: '2026-05-01T00:00:00.000Z' });
    const closures = await termAudits('term.close_petitions');
    expect(closures).toHaveLength(1);
    expect(closures[0]).toMatchObject({ actor_id: '9000', actor_role: 'System Administrator', target_type: 'term', target_id: String(t.termId) });
    expect(JSON.parse(closures[0]!.after!)).toEqual({ closureReason: 'term_ended', petitionIds: t.open });
    // Nothing more to close: the closure pass and a second edit add no audit row.
    expect((await checkExpired()).json()).toEqual({ closed: 0 });
    await patchTerm(t.termId, { name: 'Term 87 (ended)' });
    expect(await termAudits('term.close_petitions')).toHaveLength(1);
  });

  it('reopens exactly what the completion closed, with automatic statuses, when set back to automatic', async () => {
    const t = await termWithPetitions();
    await patchTerm(t.termId, { status: 'completed' });
    // Since then the administrator reopened one petition by hand and closed it again by hand.
    const setStatus = (status: string) =>
      api.request({ method: 'PATCH', url: `/api/petitions/${t.plain}/status`, payload: { status }, cookie: cookies.admin });
    expect((await setStatus('open')).statusCode).toBe(200);
    expect((await setStatus('closed')).statusCode).toBe(200);

    const answer = body<TermChangePreview>(await preview(t.termId, { status: null }));
    expect(answer).toMatchObject({ status: 'current', petitionsToClose: 0, petitionsToReopen: 3 });

    api.setNow(new Date('2026-06-16T09:00:00.000Z'));
    const response = await patchTerm(t.termId, { status: null });
    expect(response.statusCode).toBe(200);
    expect(body<Term>(response)).toMatchObject({ status: 'current', statusOverride: null });
    expect(await petitionRow(api, t.answered)).toMatchObject({ status: 'government_response', closure_reason: null, closed_at: null });
    expect(await petitionRow(api, t.scheduled)).toMatchObject({ status: 'awaiting_debate_in_parliament', closure_reason: null, closed_at: null });
    expect(await petitionRow(api, t.overridden)).toMatchObject({ status: 'awaiting_government_response', closure_reason: null });
    // Closed by hand since, closed for insufficient signatures, closed by hand before: all stay closed.
    expect(await petitionRow(api, t.plain)).toMatchObject({ status: 'closed', closure_reason: null });
    expect(await petitionRow(api, t.insufficient)).toMatchObject({ status: 'closed', closure_reason: 'three_weeks_insufficient_signatures' });
    expect(await petitionRow(api, t.byHand)).toMatchObject({ status: 'closed', closed_at: '2026-05-02T00:00:00.000Z' });

    const reopenings = await termAudits('term.reopen_petitions');
    expect(reopenings).toHaveLength(1);
    expect(JSON.parse(reopenings[0]!.after!)).toEqual({ petitionIds: [t.answered, t.scheduled, t.overridden] });
    // Reopened once: completing again would close them again, and the preview says so.
    expect(body<TermChangePreview>(await preview(t.termId, { status: 'current' })).petitionsToReopen).toBe(0);
    expect(body<TermChangePreview>(await preview(t.termId, { status: 'completed' })).petitionsToClose).toBe(3);
  });

  it('reopens by the dates: completed while upcoming, back to automatic, then the start date arrives', async () => {
    const t = await termWithPetitions({ startDate: '2026-07-01', endDate: '2026-12-31', status: 'current' });
    await patchTerm(t.termId, { status: 'completed' });
    expect(body<TermChangePreview>(await preview(t.termId, { status: null }))).toMatchObject({ status: 'upcoming', petitionsToReopen: 0 });
    await patchTerm(t.termId, { status: null });
    // Upcoming: nothing reopens yet.
    expect(await petitionRow(api, t.answered)).toMatchObject({ status: 'closed', closure_reason: 'term_ended' });
    expect((await checkExpired()).json()).toEqual({ closed: 0 });
    expect(await petitionRow(api, t.answered)).toMatchObject({ status: 'closed' });

    api.setNow(new Date('2026-07-01T08:00:00.000Z'));
    expect((await checkExpired()).statusCode).toBe(200);
    for (const id of t.open) expect((await petitionRow(api, id))?.status).not.toBe('closed');
    const reopenings = await termAudits('term.reopen_petitions');
    expect(reopenings).toHaveLength(1);
    expect(reopenings[0]).toMatchObject({ actor_id: 'system', actor_role: 'System', target_id: String(t.termId) });
    expect(JSON.parse(reopenings[0]!.after!)).toEqual({ petitionIds: t.open });
  });
});

describe('a term ended by its dates', () => {
  it('is closed by the closure pass as one action, and reopened when an edit makes it current again', async () => {
    const t = await termWithPetitions({ startDate: '2026-01-01', endDate: '2026-06-14' });
    expect((await checkExpired()).json()).toEqual({ closed: 4 });
    const closures = await termAudits('term.close_petitions');
    expect(closures).toHaveLength(1);
    expect(closures[0]).toMatchObject({ actor_id: 'system', actor_role: 'System', target_id: String(t.termId) });
    expect(JSON.parse(closures[0]!.after!)).toEqual({ closureReason: 'term_ended', petitionIds: t.open });
    expect((await checkExpired()).json()).toEqual({ closed: 0 });
    expect(await termAudits('term.close_petitions')).toHaveLength(1);

    expect(body<TermChangePreview>(await preview(t.termId, { endDate: '2026-12-31' }))).toMatchObject({ status: 'current', petitionsToReopen: 4 });
    expect((await patchTerm(t.termId, { endDate: '2026-12-31' })).statusCode).toBe(200);
    expect(await petitionRow(api, t.plain)).toMatchObject({ status: 'awaiting_government_response', closure_reason: null });
    expect(await petitionRow(api, t.overridden)).toMatchObject({ status: 'awaiting_government_response' });
    expect(await petitionRow(api, t.insufficient)).toMatchObject({ status: 'closed' });
    expect(JSON.parse((await termAudits('term.reopen_petitions'))[0]!.after!)).toEqual({ petitionIds: t.open });
  });
});

describe('deleting a term', () => {
  it('is previewed with the number of petitions left without a term; its closure records go with it', async () => {
    const t = await termWithPetitions();
    await patchTerm(t.termId, { status: 'completed' });
    expect(body<TermChangePreview>(await preview(t.termId, {})).petitionsInTerm).toBe(6);
    const response = await api.request({ method: 'DELETE', url: `/api/parliamentary-terms/${t.termId}`, cookie: cookies.admin });
    expect(response.statusCode).toBe(200);
    expect((await petitionRow(api, t.plain))?.term_id).toBeNull();
    const left = await api.context.db.selectFrom('term_closed_petitions').selectAll().execute();
    expect(left).toEqual([]);
  });
});

describe('the preview route', () => {
  it('is for the administrator only, and answers 404 for an unknown term and 400 for crossed dates', async () => {
    const termId = await seedStaffTerm(api, { name: 'Term 90' });
    for (const role of ['citizen', 'rank8'] as const) expect((await preview(termId, {}, role)).statusCode).toBe(403);
    expect((await api.request({ method: 'POST', url: `/api/parliamentary-terms/${termId}/preview`, payload: {} })).statusCode).toBe(401);
    expect((await preview(termId + 1000, {})).statusCode).toBe(404);
    const crossed = await preview(termId, { endDate: '2025-01-01' });
    expect(crossed.statusCode).toBe(400);
    expect(body(crossed).detail).toBe(VALIDATION.termDatesOrder);
  });
});

describe('term names', () => {
  it('refuses a second term of the same name, ignoring case and spaces, on create and on rename (409)', async () => {
    const first = await seedStaffTerm(api, { name: 'Term 88' });
    const other = await seedStaffTerm(api, { name: 'Term 89' });
    const before = await writeSnapshot(api);
    const created = await api.request({
      method: 'POST',
      url: '/api/parliamentary-terms',
      payload: { name: ' term 88 ', startDate: '2027-01-01', endDate: '2027-06-30' },
      cookie: cookies.admin,
    });
    expect(created.statusCode).toBe(409);
    expect(body(created).detail).toBe(VALIDATION.termNameTaken);
    const renamed = await patchTerm(other, { name: 'TERM 88' });
    expect(renamed.statusCode).toBe(409);
    expect(body(renamed).detail).toBe(VALIDATION.termNameTaken);
    expect(await writeSnapshot(api)).toEqual(before);
    // Saving a term under its own name (other fields changed) is no clash.
    expect((await patchTerm(first, { name: 'Term 88', endDate: '2026-11-30' })).statusCode).toBe(200);
  });
});
