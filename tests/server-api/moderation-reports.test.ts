/**
 * Community safety over real HTTP (docs/moderation.md): members report, reports hide a petition from
 * every public read at once, and the refusals each carry their own text.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PetitionDetail, PetitionList } from '../../src-shared/domain/schemas.ts';
import type { ModerationQueue } from '../../src-shared/domain/moderation-schemas.ts';
import type { FeedPage } from '../../src-shared/domain/feed-schemas.ts';
import { HIDDEN_BY_REPORTS_REASON } from '../../src-server/moderation/report-petition.ts';
import { MODERATION_ERRORS, reportDailyLimitMessage } from '../../src-shared/rules/moderation.ts';
import { MODERATION_TEXTS } from '../../src-shared/domain/moderation-texts.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { startTestApi, ROLE_PROFILES, type TestApi } from '../support/api-harness.ts';
import { seedStaffPetition, seedStaffTerm } from './staff-fixtures.ts';

const REPORTS_PER_DAY = 4;
let api: TestApi;
let creator: string;
let leader: string;
let members: string[];

const member = (i: number) => ({ id: String(700_000 + i), username: `member${i}`, displayName: `Member ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 });

beforeAll(async () => {
  api = await startTestApi({ moderation: { reportsToHide: 3, reportsPerDay: REPORTS_PER_DAY } });
  creator = await api.signInAs('citizen');
  leader = await api.signInAs('rank7');
  members = [];
  for (let i = 0; i < 8; i += 1) members.push(await api.signIn(member(i)));
});
afterAll(() => api.close());

beforeEach(async () => {
  // Each test starts with a clean slate of reports (the daily limit counts across tests otherwise).
  await api.context.db.deleteFrom('petition_reports').execute();
});

const report = (petitionId: number, cookie: string | undefined, body: object = { reason: 'spam' }) =>
  api.request({ method: 'POST', url: `/api/petitions/${petitionId}/reports`, payload: body, cookie });

async function publicView(petitionId: number, title: string) {
  const list = (await api.request({ url: '/api/petitions?pageSize=100' })).json<PetitionList>();
  const search = (await api.request({ url: `/api/petitions?search=${encodeURIComponent(title)}` })).json<PetitionList>();
  const csv = (await api.request({ url: '/api/petitions.csv' })).body;
  return {
    inList: list.items.some((p) => p.id === petitionId),
    listTotal: list.total,
    inSearch: search.items.some((p) => p.id === petitionId),
    searchTotal: search.total,
    inCsv: csv.split('\r\n').some((line) => line.startsWith(`${petitionId},`)),
    detail: (await api.request({ url: `/api/petitions/${petitionId}` })).statusCode,
    count: (await api.request({ url: `/api/petitions/${petitionId}/count` })).statusCode,
    signers: (await api.request({ url: `/api/petitions/${petitionId}/signers` })).statusCode,
  };
}

describe('three reports hide a petition', () => {
  it('takes it out of the list, search, CSV, counts and the public API at once, and keeps it for its creator', async () => {
    const termId = await seedStaffTerm(api, { name: 'Hiding term', startDate: '2020-01-01', endDate: '2099-12-31' });
    const id = await seedStaffPetition(api, { title: 'Rename the zorblax bridge', signatures: 4, termId, creatorId: ROLE_PROFILES.citizen.id });
    const statsBefore = (await api.request({ url: '/api/stats' })).json<{ created: number }>();
    const before = await publicView(id, 'zorblax');
    expect(before).toMatchObject({ inList: true, inSearch: true, inCsv: true, detail: 200, count: 200, signers: 200, searchTotal: 1 });

    for (const cookie of members.slice(0, 2)) expect((await report(id, cookie)).statusCode).toBe(201);
    expect((await publicView(id, 'zorblax')).inList).toBe(true);
    const third = await report(id, members[2], { reason: 'other', details: 'It names a real person.' });
    expect(third.statusCode).toBe(201);
    expect(third.json()).toMatchObject({ petitionId: id, reason: 'other' });

    const after = await publicView(id, 'zorblax');
    expect(after).toEqual({ inList: false, listTotal: before.listTotal - 1, inSearch: false, searchTotal: 0, inCsv: false, detail: 404, count: 404, signers: 404 });
    const statsAfter = (await api.request({ url: '/api/stats' })).json<{ created: number }>();
    expect(statsAfter.created).toBe(statsBefore.created - 1);

    const own = await api.request({ url: `/api/petitions/${id}`, cookie: creator });
    expect(own.statusCode).toBe(200);
    expect(own.json<PetitionDetail>()).toMatchObject({ id, signatures: 4, status: 'open', moderation: { state: 'hidden', note: null, reasonCode: null } });
    const staff = await api.request({ url: `/api/petitions/${id}`, cookie: leader });
    expect(staff.json<PetitionDetail>().moderation?.state).toBe('hidden');

    const events = await api.context.db.selectFrom('moderation_events').selectAll().where('petition_id', '=', id).execute();
    expect(events.map((e) => [e.action, e.actor_id])).toEqual([['hidden_by_reports', null]]);
    const chat = await api.context.db.selectFrom('chat_messages').select(['event', 'payload']).where('event', '=', 'petition.hidden_by_reports').execute();
    expect(chat).toHaveLength(1);
    expect(chat[0]!.payload).toContain('Rename the zorblax bridge');

    // The creator alone is told, through the notification centre (docs/moderation.md#what-the-creator-is-told).
    const feed = (await api.request({ url: '/api/me/notifications', cookie: creator })).json<FeedPage>();
    expect(feed.items.filter((item) => item.petition.id === id).map((item) => item.detail)).toEqual([{ kind: 'petition_hidden', reason: HIDDEN_BY_REPORTS_REASON }]);
    const reporterFeed = (await api.request({ url: '/api/me/notifications', cookie: members[0] })).json<FeedPage>();
    expect(reporterFeed.items.some((item) => item.petition.id === id)).toBe(false);

    const queue = (await api.request({ url: '/api/moderation/queue', cookie: leader })).json<ModerationQueue>();
    const item = queue.items.find((c) => c.petition.id === id);
    expect(item).toMatchObject({ openReports: 3, totalReports: 3, creator: { id: ROLE_PROFILES.citizen.id, banned: false } });
    expect(item!.reports.map((r) => r.reason).sort()).toEqual(['other', 'spam', 'spam']);
    expect(item!.reports.find((r) => r.reason === 'other')?.details).toBe('It names a real person.');
    expect(queue.counts.hidden).toBeGreaterThanOrEqual(1);
  });

  it('refuses signing and unsigning while hidden, and restoring brings back exactly what was there', async () => {
    const id = await seedStaffPetition(api, { title: 'Plant quuxberry hedges', signatures: 12, status: 'awaiting_government_response' });
    const signer = await api.signIn(member(20));
    expect((await api.request({ method: 'POST', url: `/api/petitions/${id}/sign`, cookie: signer })).statusCode).toBe(200);
    const before = (await api.request({ url: `/api/petitions/${id}` })).json<PetitionDetail>();
    for (const cookie of members.slice(0, 3)) await report(id, cookie);

    const signAgain = await api.request({ method: 'POST', url: `/api/petitions/${id}/sign`, cookie: members[5] });
    expect([signAgain.statusCode, signAgain.json().detail]).toEqual([404, ERRORS.petitionNotFound]);
    expect((await api.request({ method: 'POST', url: `/api/petitions/${id}/unsign`, cookie: signer })).statusCode).toBe(404);

    const hidden = (await api.request({ url: `/api/petitions/${id}`, cookie: leader })).json<PetitionDetail>();
    const restore = await api.request({
      method: 'POST',
      url: `/api/petitions/${id}/moderation`,
      payload: { decision: 'restore' },
      headers: { 'if-match': `"${hidden.version}"` },
      cookie: leader,
    });
    expect(restore.statusCode, restore.body).toBe(200);
    expect(restore.json()).not.toHaveProperty('moderation');
    const after = (await api.request({ url: `/api/petitions/${id}` })).json<PetitionDetail>();
    const { version: _v1, ...was } = before;
    const { version: _v2, ...now } = after;
    expect(now).toEqual(was);
    expect((await publicView(id, 'quuxberry')).inSearch).toBe(true);
    const told = await api.context.db.selectFrom('petition_events').select(['kind', 'audience', 'actor_id']).where('petition_id', '=', id).orderBy('id').execute();
    expect(told).toEqual([
      { kind: 'petition_hidden', audience: 'creator', actor_id: null },
      { kind: 'petition_restored', audience: 'creator', actor_id: ROLE_PROFILES.rank7.id },
    ]);
    const settled = await api.context.db.selectFrom('petition_reports').select('settled_by').where('petition_id', '=', id).execute();
    expect(settled.map((r) => r.settled_by)).toEqual(['restore', 'restore', 'restore']);
  });
});

describe('refusals, each with its text', () => {
  it('refuses a guest, a non-citizen, a banned member, the creator, a second report and a petition that is not there', async () => {
    const id = await seedStaffPetition(api, { creatorId: ROLE_PROFILES.citizen.id });
    expect((await report(id, undefined)).statusCode).toBe(401);
    const outsider = await report(id, await api.signInAs('nonCitizen'));
    expect([outsider.statusCode, outsider.json().detail]).toEqual([403, MODERATION_ERRORS.reportForbidden]);
    const banned = await report(id, await api.signInAs('bannedCitizen'));
    expect([banned.statusCode, banned.json().detail]).toEqual([403, MODERATION_ERRORS.reportBanned]);
    const own = await report(id, creator);
    expect([own.statusCode, own.json().detail]).toEqual([403, MODERATION_ERRORS.reportOwnPetition]);
    expect((await report(id, members[0])).statusCode).toBe(201);
    const twice = await report(id, members[0], { reason: 'offensive' });
    expect([twice.statusCode, twice.json().detail]).toEqual([409, MODERATION_ERRORS.alreadyReported]);
    expect(MODERATION_ERRORS.alreadyReported).toBe(MODERATION_TEXTS.alreadyReported);
    expect((await report(999_999, members[0])).statusCode).toBe(404);
    const reported = await api.request({ url: `/api/petitions/${id}`, cookie: members[0] });
    expect(reported.json<PetitionDetail>().reported_by_viewer).toBe(true);
    expect((await api.request({ url: `/api/petitions/${id}`, cookie: members[1] })).json<PetitionDetail>().reported_by_viewer).toBe(false);
  });

  it(`refuses reports past ${REPORTS_PER_DAY} a day for one member, with Retry-After until UK midnight`, async () => {
    const ids: number[] = [];
    for (let i = 0; i <= REPORTS_PER_DAY; i += 1) ids.push(await seedStaffPetition(api));
    for (const id of ids.slice(0, REPORTS_PER_DAY)) expect((await report(id, members[6])).statusCode).toBe(201);
    const over = await report(ids[REPORTS_PER_DAY]!, members[6]);
    expect([over.statusCode, over.json().detail]).toEqual([429, reportDailyLimitMessage(REPORTS_PER_DAY)]);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(25 * 3600);
    // Another member is not affected.
    expect((await report(ids[REPORTS_PER_DAY]!, members[7])).statusCode).toBe(201);
  });

  it('checks the reason: other needs words, a duplicate names another visible petition', async () => {
    const id = await seedStaffPetition(api);
    const other = await report(id, members[1], { reason: 'other' });
    expect([other.statusCode, other.json().detail]).toEqual([400, MODERATION_ERRORS.otherDetailsRequired]);
    const noTarget = await report(id, members[1], { reason: 'duplicate' });
    expect([noTarget.statusCode, noTarget.json().detail]).toEqual([400, MODERATION_ERRORS.duplicateRequired]);
    const missing = await report(id, members[1], { reason: 'duplicate', duplicateOf: 999_999 });
    expect([missing.statusCode, missing.json().detail]).toEqual([400, MODERATION_ERRORS.duplicateNotFound]);
    const target = await seedStaffPetition(api);
    const ok = await report(id, members[1], { reason: 'duplicate', duplicateOf: target });
    expect(ok.statusCode).toBe(201);
    const stored = await api.context.db.selectFrom('petition_reports').selectAll().where('petition_id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ reason: 'duplicate', duplicate_of: target, reporter_id: member(1).id, settled_at: null });
  });
});

describe('50 members report one petition at the same moment', () => {
  it('hides it exactly once; the reports after the hide find it gone', async () => {
    const id = await seedStaffPetition(api, { title: 'Concurrent reports petition' });
    const cookies: string[] = [];
    for (let i = 0; i < 50; i += 1) cookies.push(await api.signIn(member(100 + i)));
    const answers = await Promise.all(cookies.map((cookie) => report(id, cookie)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.every((s) => s === 201 || s === 404), String(statuses)).toBe(true);
    const created = statuses.filter((s) => s === 201).length;
    const stored = await api.context.db.selectFrom('petition_reports').select('id').where('petition_id', '=', id).execute();
    expect(stored).toHaveLength(created);
    expect(created).toBe(3);
    const hides = await api.context.db.selectFrom('moderation_events').select('id').where('petition_id', '=', id).where('action', '=', 'hidden_by_reports').execute();
    expect(hides).toHaveLength(1);
    const row = await api.context.db.selectFrom('petitions').select(['moderation_state', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ moderation_state: 'hidden', version: 2 });
  });
});
