import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import type { Petition, Term } from '../../src-shared/domain/schemas.ts';
import { CALENDAR_DATE_ERROR } from '../../src-server/staff/calendar-date.ts';
import { TERM_DELETED } from '../../src-server/terms/terms-routes.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import {
  auditRows,
  body,
  petitionRow,
  rolesExcept,
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

const validTerm = { name: 'Term 88', startDate: '2027-01-01', endDate: '2027-06-30' };

describe('GET /api/parliamentary-terms', () => {
  it('is public and lists terms by start date with their effective status and their stored override', async () => {
    api.setNow(new Date('2026-06-01T12:00:00Z'));
    const later = await seedStaffTerm(api, { name: 'Later', startDate: '2030-01-01', endDate: '2030-12-31', status: null });
    const earlier = await seedStaffTerm(api, { name: 'Earlier', startDate: '2020-01-01', endDate: '2020-12-31', status: 'completed' });
    const now = await seedStaffTerm(api, { name: 'Now', startDate: '2026-01-01', endDate: '2026-12-31', status: null });
    const forced = await seedStaffTerm(api, { name: 'Forced', startDate: '2019-01-01', endDate: '2019-12-31', status: 'current' });
    const response = await api.request({ method: 'GET', url: '/api/parliamentary-terms' });
    expect(response.statusCode).toBe(200);
    const terms = body<Term[]>(response);
    const starts = terms.map((t) => t.startDate);
    expect(starts).toEqual([...starts].sort());
    expect(terms.find((t) => t.id === earlier)).toEqual({
      id: earlier,
      name: 'Earlier',
      startDate: '2020-01-01',
      endDate: '2020-12-31',
      status: 'completed',
      statusOverride: 'completed',
    });
    // A consumer never computes it: the dates decide where no override is stored.
    expect(terms.find((t) => t.id === later)).toMatchObject({ status: 'upcoming', statusOverride: null });
    expect(terms.find((t) => t.id === now)).toMatchObject({ status: 'current', statusOverride: null });
    expect(terms.find((t) => t.id === forced)).toMatchObject({ status: 'current', statusOverride: 'current' });
    api.setNow(new Date('2027-02-01T12:00:00Z'));
    const nextYear = body<Term[]>(await api.request({ method: 'GET', url: '/api/parliamentary-terms' }));
    expect(nextYear.find((t) => t.id === now)).toMatchObject({ status: 'completed', statusOverride: null });
    api.setNow(null);
    await api.context.db.deleteFrom('terms').where('id', 'in', [now, forced]).execute();
  });
});

describe('POST /api/parliamentary-terms', () => {
  it('creates an upcoming term by default (201) and audits it', async () => {
    const response = await api.request({ method: 'POST', url: '/api/parliamentary-terms', payload: { ...validTerm, name: '  Term 88  ' }, cookie: cookies.admin });
    expect(response.statusCode).toBe(201);
    const term = body<Term>(response);
    expect(term).toMatchObject({ name: 'Term 88', startDate: '2027-01-01', endDate: '2027-06-30', status: 'upcoming' });
    const audit = (await auditRows(api)).at(-1);
    expect(audit).toMatchObject({ actor_id: '9000', actor_role: 'System Administrator', action: 'term.create', target_type: 'term', target_id: String(term.id), before: null });
    expect(JSON.parse(audit?.after ?? 'null')).toEqual(term);
  });

  it('keeps a status the body gives, including null (follow the dates)', async () => {
    const current = await api.request({ method: 'POST', url: '/api/parliamentary-terms', payload: { ...validTerm, name: 'Term 88 current', status: 'current' }, cookie: cookies.admin });
    expect(body<Term>(current)).toMatchObject({ status: 'current', statusOverride: 'current' });
    const byDates = await api.request({ method: 'POST', url: '/api/parliamentary-terms', payload: { ...validTerm, name: 'Term 88 by dates', status: null }, cookie: cookies.admin });
    // validTerm lies in 2027: upcoming by its dates.
    expect(body<Term>(byDates)).toMatchObject({ status: 'upcoming', statusOverride: null });
  });

  it.each([
    [{ ...validTerm, name: '' }, VALIDATION.termFieldsRequired],
    [{ ...validTerm, name: '   ' }, VALIDATION.termFieldsRequired],
    [{ ...validTerm, startDate: '' }, VALIDATION.termFieldsRequired],
    [{ ...validTerm, endDate: '' }, VALIDATION.termFieldsRequired],
    [{ ...validTerm, startDate: '2027-07-01' }, VALIDATION.termDatesOrder],
    [{ ...validTerm, endDate: '2027-02-30' }, CALENDAR_DATE_ERROR],
  ])('refuses %j with the spec message and writes nothing', async (payload, detail) => {
    const before = await writeSnapshot(api);
    const response = await api.request({ method: 'POST', url: '/api/parliamentary-terms', payload, cookie: cookies.admin });
    expect(response.statusCode).toBe(400);
    expect(body(response).detail).toBe(detail);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it.each([
    [{ name: 'Term 1', startDate: '01/02/2027', endDate: '2027-06-30' }],
    [{ name: 'Term 1', startDate: '2027-01-01' }],
    [{ ...validTerm, status: 'ongoing' }],
    [{ ...validTerm, colour: 'red' }],
    [{ ...validTerm, name: 42 }],
  ])('refuses malformed body %j with 400', async (payload) => {
    const response = await api.request({ method: 'POST', url: '/api/parliamentary-terms', payload, cookie: cookies.admin });
    expect(response.statusCode).toBe(400);
    expect(typeof body(response).detail).toBe('string');
  });

  it('needs a session (401)', async () => {
    const response = await api.request({ method: 'POST', url: '/api/parliamentary-terms', payload: validTerm });
    expect(response.statusCode).toBe(401);
    expect(body(response).detail).toBe(ERRORS.loginRequired);
  });

  it.each(rolesExcept('admin'))('is refused to %s (403)', async (role) => {
    const before = await writeSnapshot(api);
    const response = await api.request({ method: 'POST', url: '/api/parliamentary-terms', payload: validTerm, cookie: cookies[role] });
    expect(response.statusCode).toBe(403);
    expect(body(response).detail).toBe(ERRORS.adminOnly);
    expect(await writeSnapshot(api)).toEqual(before);
  });
});

describe('PATCH /api/parliamentary-terms/:id', () => {
  it('changes only the fields sent and audits before and after', async () => {
    const id = await seedStaffTerm(api, { name: 'Old name', startDate: '2028-01-01', endDate: '2028-12-31', status: 'upcoming' });
    const response = await api.request({ method: 'PATCH', url: `/api/parliamentary-terms/${id}`, payload: { name: 'New name', status: null }, cookie: cookies.admin });
    expect(response.statusCode).toBe(200);
    expect(body<Term>(response)).toEqual({ id, name: 'New name', startDate: '2028-01-01', endDate: '2028-12-31', status: 'upcoming', statusOverride: null });
    const audit = (await auditRows(api)).at(-1);
    expect(audit?.action).toBe('term.update');
    expect(JSON.parse(audit?.before ?? '{}')).toMatchObject({ name: 'Old name', statusOverride: 'upcoming' });
    expect(JSON.parse(audit?.after ?? '{}')).toMatchObject({ name: 'New name', statusOverride: null });
  });

  it('keeps start on or before end after merging', async () => {
    const id = await seedStaffTerm(api, { startDate: '2028-01-01', endDate: '2028-12-31' });
    const response = await api.request({ method: 'PATCH', url: `/api/parliamentary-terms/${id}`, payload: { startDate: '2029-01-01' }, cookie: cookies.admin });
    expect(response.statusCode).toBe(400);
    expect(body(response).detail).toBe(VALIDATION.termDatesOrder);
    const row = await api.context.db.selectFrom('terms').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.start_date).toBe('2028-01-01');
  });

  it('refuses an empty name with the spec message', async () => {
    const id = await seedStaffTerm(api);
    const response = await api.request({ method: 'PATCH', url: `/api/parliamentary-terms/${id}`, payload: { name: '  ' }, cookie: cookies.admin });
    expect(response.statusCode).toBe(400);
    expect(body(response).detail).toBe(VALIDATION.termFieldsRequired);
  });

  it('answers 404 for an unknown term and 400 for a bad id', async () => {
    const missing = await api.request({ method: 'PATCH', url: '/api/parliamentary-terms/999999', payload: { name: 'X term' }, cookie: cookies.admin });
    expect(missing.statusCode).toBe(404);
    expect(body(missing).detail).toBe(ERRORS.termNotFound);
    const bad = await api.request({ method: 'PATCH', url: '/api/parliamentary-terms/abc', payload: { name: 'X term' }, cookie: cookies.admin });
    expect(bad.statusCode).toBe(400);
  });

  it('is refused to a Prime Minister (403)', async () => {
    const id = await seedStaffTerm(api);
    const response = await api.request({ method: 'PATCH', url: `/api/parliamentary-terms/${id}`, payload: { name: 'Renamed' }, cookie: cookies.rank8 });
    expect(response.statusCode).toBe(403);
    expect(body(response).detail).toBe(ERRORS.adminOnly);
  });
});

describe('DELETE /api/parliamentary-terms/:id', () => {
  it('deletes the term; its petitions stay with no term and a new version', async () => {
    const termId = await seedStaffTerm(api, { name: 'Doomed' });
    const petitionId = await seedStaffPetition(api, { termId, signatures: 2 });
    const response = await api.request({ method: 'DELETE', url: `/api/parliamentary-terms/${termId}`, cookie: cookies.admin });
    expect(response.statusCode).toBe(200);
    expect(body(response)).toEqual({ message: TERM_DELETED });
    const petition = await petitionRow(api, petitionId);
    expect(petition?.term_id).toBeNull();
    expect(petition?.version).toBe(2);
    expect(petition?.signature_count).toBe(2);
    const audit = (await auditRows(api)).at(-1);
    expect(audit?.action).toBe('term.delete');
    expect(JSON.parse(audit?.before ?? '{}')).toMatchObject({ id: termId, name: 'Doomed', petitionsUnassigned: 1 });
    expect(audit?.after).toBeNull();
    const again = await api.request({ method: 'DELETE', url: `/api/parliamentary-terms/${termId}`, cookie: cookies.admin });
    expect(again.statusCode).toBe(404);
    expect(body(again).detail).toBe(ERRORS.termNotFound);
  });

  it('is refused to non-administrators and to visitors', async () => {
    const termId = await seedStaffTerm(api);
    const forbidden = await api.request({ method: 'DELETE', url: `/api/parliamentary-terms/${termId}`, cookie: cookies.rank7 });
    expect(forbidden.statusCode).toBe(403);
    const anonymous = await api.request({ method: 'DELETE', url: `/api/parliamentary-terms/${termId}` });
    expect(anonymous.statusCode).toBe(401);
    const list = body<Term[]>(await api.request({ method: 'GET', url: '/api/parliamentary-terms' }));
    expect(list.some((t) => t.id === termId)).toBe(true);
  });
});

describe('PATCH /api/petitions/:id (assign a term)', () => {
  it('assigns and unassigns, bumping the version each time', async () => {
    const termId = await seedStaffTerm(api);
    const id = await seedStaffPetition(api);
    const assigned = await api.request({ method: 'PATCH', url: `/api/petitions/${id}`, payload: { termId }, cookie: cookies.admin });
    expect(assigned.statusCode).toBe(200);
    expect(body<Petition>(assigned)).toMatchObject({ id, termId, version: 2 });
    expect(assigned.headers.etag).toBe('"2"');
    const cleared = await api.request({ method: 'PATCH', url: `/api/petitions/${id}`, payload: { termId: null }, cookie: cookies.admin });
    expect(body<Petition>(cleared)).toMatchObject({ termId: null, version: 3 });
    const audit = (await auditRows(api)).at(-1);
    expect(audit?.action).toBe('petition.assign_term');
    expect(JSON.parse(audit?.before ?? '{}').termId).toBe(termId);
    expect(JSON.parse(audit?.after ?? '{}').termId).toBeNull();
  });

  it('answers 404 for an unknown term or petition, writing nothing', async () => {
    const termId = await seedStaffTerm(api);
    const id = await seedStaffPetition(api);
    const before = await writeSnapshot(api);
    const noTerm = await api.request({ method: 'PATCH', url: `/api/petitions/${id}`, payload: { termId: 987654 }, cookie: cookies.admin });
    expect(noTerm.statusCode).toBe(404);
    expect(body(noTerm).detail).toBe(ERRORS.termNotFound);
    const noPetition = await api.request({ method: 'PATCH', url: '/api/petitions/987654', payload: { termId }, cookie: cookies.admin });
    expect(noPetition.statusCode).toBe(404);
    expect(body(noPetition).detail).toBe(ERRORS.petitionNotFound);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('refuses other fields and non-administrators', async () => {
    const id = await seedStaffPetition(api);
    const extra = await api.request({ method: 'PATCH', url: `/api/petitions/${id}`, payload: { termId: null, title: 'Hijacked title' }, cookie: cookies.admin });
    expect(extra.statusCode).toBe(400);
    const forbidden = await api.request({ method: 'PATCH', url: `/api/petitions/${id}`, payload: { termId: null }, cookie: cookies.rank8 });
    expect(forbidden.statusCode).toBe(403);
    expect(body(forbidden).detail).toBe(ERRORS.adminOnly);
    expect((await petitionRow(api, id))?.version).toBe(1);
  });
});
