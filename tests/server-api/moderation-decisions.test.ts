/**
 * Moderators' decisions over real HTTP (docs/moderation.md#decisions): keep, hide, reject with a
 * standard reason (tombstone or 404), restore; conflicts between moderators, replays, bulk results,
 * the rejection reasons list, the queue's ordering and similar petitions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Petition, PetitionDetail } from '../../src-shared/domain/schemas.ts';
import type { ModerationBulkResponse, ModerationCase, ModerationQueue, RejectionReason, SimilarPetitionList } from '../../src-shared/domain/moderation-schemas.ts';
import { MODERATION_ERRORS } from '../../src-shared/rules/moderation.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { startTestApi, ROLE_PROFILES, type TestApi } from '../support/api-harness.ts';
import { seedStaffPetition } from './staff-fixtures.ts';

let api: TestApi;
let creator: string;
let leader: string;
let primeMinister: string;
let admin: string;
let minister: string;

beforeAll(async () => {
  api = await startTestApi();
  creator = await api.signInAs('citizen');
  leader = await api.signInAs('rank7');
  primeMinister = await api.signInAs('rank8');
  admin = await api.signInAs('admin');
  minister = await api.signInAs('rank6');
});
afterAll(() => api.close());

function decide(id: number, body: object, options: { cookie?: string; version?: number; key?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.version !== undefined) headers['if-match'] = `"${options.version}"`;
  if (options.key) headers['idempotency-key'] = options.key;
  return api.request({ method: 'POST', url: `/api/petitions/${id}/moderation`, payload: body, headers, cookie: options.cookie ?? leader });
}

async function version(id: number): Promise<number> {
  return (await api.context.db.selectFrom('petitions').select('version').where('id', '=', id).executeTakeFirstOrThrow()).version;
}

describe('rejecting', () => {
  it('shows the public a tombstone with the reason’s public text, and the creator the whole petition with it', async () => {
    const id = await seedStaffPetition(api, { title: 'A petition that repeats another', creatorId: ROLE_PROFILES.citizen.id });
    const rejected = await decide(id, { decision: 'reject', reasonCode: 'duplicate' }, { version: 1 });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json<Petition>().moderation).toMatchObject({ state: 'rejected', reasonCode: 'duplicate', note: null });
    expect(rejected.headers.etag).toBe('"2"');

    const tombstone = await api.request({ url: `/api/petitions/${id}` });
    expect(tombstone.statusCode).toBe(410);
    expect(tombstone.json()).toMatchObject({
      detail: MODERATION_ERRORS.petitionRejected,
      rejection: { code: 'duplicate', title: 'Duplicate of another petition', text: 'There is already a petition about the same thing. Please sign that petition instead.' },
    });
    expect(tombstone.body).not.toContain('A petition that repeats another');
    const own = (await api.request({ url: `/api/petitions/${id}`, cookie: creator })).json<PetitionDetail>();
    expect(own).toMatchObject({ title: 'A petition that repeats another', rejection: { code: 'duplicate' }, moderation: { state: 'rejected' } });

    const audit = await api.context.db.selectFrom('audit_log').select(['action', 'actor_id']).where('target_id', '=', String(id)).execute();
    expect(audit).toEqual([{ action: 'moderation.reject', actor_id: ROLE_PROFILES.rank7.id }]);
  });

  it('answers 404 for a hidden reason, and the petition is out of every list', async () => {
    const id = await seedStaffPetition(api, { title: 'Petition naming a pupil' });
    expect((await decide(id, { decision: 'reject', reasonCode: 'personal_information' })).statusCode).toBe(200);
    const hidden = await api.request({ url: `/api/petitions/${id}` });
    expect([hidden.statusCode, hidden.json().detail]).toEqual([404, ERRORS.petitionNotFound]);
    expect(hidden.body).not.toContain('rejection');
    expect((await api.request({ url: '/api/petitions?search=pupil' })).json().total).toBe(0);
  });

  it('refuses an unknown reason with 400 and changes nothing', async () => {
    const id = await seedStaffPetition(api);
    const response = await decide(id, { decision: 'reject', reasonCode: 'no_such_reason' });
    expect([response.statusCode, response.json().detail]).toEqual([400, MODERATION_ERRORS.rejectionReasonUnknown]);
    expect(await version(id)).toBe(1);
  });
});

describe('between moderators', () => {
  it('answers 412 with the current petition when another moderator acted first, and 200 unchanged when they did the same', async () => {
    const id = await seedStaffPetition(api);
    expect((await decide(id, { decision: 'hide', reason: 'Checking a claim' }, { version: 1 })).statusCode).toBe(200);
    const late = await decide(id, { decision: 'reject', reasonCode: 'offensive' }, { cookie: primeMinister, version: 1 });
    expect(late.statusCode).toBe(412);
    expect(late.json().petition).toMatchObject({ id, version: 2, moderation: { state: 'hidden', note: 'Checking a claim' } });
    const same = await decide(id, { decision: 'hide', reason: 'Another reason' }, { cookie: primeMinister, version: 1 });
    expect(same.statusCode).toBe(200);
    expect(same.json<Petition>().moderation?.note).toBe('Checking a claim');
    expect(await version(id)).toBe(2);
  });

  it('refuses keeping or hiding a rejected petition with 409 (restore first)', async () => {
    const id = await seedStaffPetition(api);
    await decide(id, { decision: 'reject', reasonCode: 'advertising' });
    const keep = await decide(id, { decision: 'keep' }, { version: 2 });
    expect([keep.statusCode, keep.json().detail]).toEqual([409, MODERATION_ERRORS.keepRejected]);
    const hide = await decide(id, { decision: 'hide', reason: 'x' }, { version: 2 });
    expect([hide.statusCode, hide.json().detail]).toEqual([409, MODERATION_ERRORS.hideRejected]);
    const restore = await decide(id, { decision: 'restore' }, { version: 2 });
    expect(restore.statusCode).toBe(200);
    expect((await api.request({ url: `/api/petitions/${id}` })).statusCode).toBe(200);
  });

  it('applies a decision once with an Idempotency-Key and replays the stored answer', async () => {
    const id = await seedStaffPetition(api);
    const first = await decide(id, { decision: 'hide', reason: 'Look again later' }, { key: 'hide-once-1' });
    const again = await decide(id, { decision: 'hide', reason: 'Look again later' }, { key: 'hide-once-1' });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const other = await decide(id, { decision: 'keep' }, { key: 'hide-once-1' });
    expect(other.statusCode).toBe(422);
    const events = await api.context.db.selectFrom('moderation_events').select('action').where('petition_id', '=', id).execute();
    expect(events).toEqual([{ action: 'hide' }]);
  });

  it('keep settles the open reports and brings a hidden petition back; a kept visible petition is unchanged afterwards', async () => {
    const id = await seedStaffPetition(api);
    for (let i = 0; i < 2; i += 1) {
      const cookie = await api.signIn({ id: String(710_000 + i), username: `k${i}`, displayName: `K ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 });
      expect((await api.request({ method: 'POST', url: `/api/petitions/${id}/reports`, payload: { reason: 'spam' }, cookie })).statusCode).toBe(201);
    }
    const kept = await decide(id, { decision: 'keep' }, { version: 1 });
    expect(kept.statusCode).toBe(200);
    const open = await api.context.db.selectFrom('petition_reports').select('id').where('petition_id', '=', id).where('settled_at', 'is', null).execute();
    expect(open).toHaveLength(0);
    const twice = await decide(id, { decision: 'keep' }, { version: 1 });
    expect(twice.statusCode).toBe(200);
    expect(await version(id)).toBe(2);
  });
});

describe('who may moderate', () => {
  it('refuses a Cabinet Minister and a citizen with 403 and the moderation text', async () => {
    const id = await seedStaffPetition(api);
    for (const cookie of [minister, creator]) {
      const response = await decide(id, { decision: 'hide', reason: 'x' }, { cookie });
      expect([response.statusCode, response.json().detail]).toEqual([403, MODERATION_ERRORS.moderationForbidden]);
    }
    expect((await api.request({ url: '/api/moderation/queue', cookie: minister })).statusCode).toBe(403);
  });
});

describe('bulk moderation', () => {
  it('answers per item: applied, unchanged, conflict, refused, not found, and replays item keys', async () => {
    const [a, b, c, d] = [await seedStaffPetition(api), await seedStaffPetition(api), await seedStaffPetition(api), await seedStaffPetition(api)];
    await decide(c, { decision: 'hide', reason: 'Moved on' });
    await decide(d, { decision: 'reject', reasonCode: 'unclear' });
    const body = {
      items: [
        { petitionId: a, action: { decision: 'hide', reason: 'Bulk hide' }, expectedVersion: 1, idempotencyKey: 'bulk-a' },
        { petitionId: b, action: { decision: 'keep' }, expectedVersion: 1 },
        { petitionId: c, action: { decision: 'reject', reasonCode: 'spam_nope' }, expectedVersion: 1 },
        { petitionId: d, action: { decision: 'keep' }, expectedVersion: 2 },
        { petitionId: 999_998, action: { decision: 'restore' } },
      ],
    };
    const response = await api.request({ method: 'POST', url: '/api/petitions/bulk-moderation', payload: body, cookie: leader });
    expect(response.statusCode, response.body).toBe(200);
    const results = response.json<ModerationBulkResponse>().results;
    expect(results.map((r) => [r.petitionId, r.result, r.status])).toEqual([
      [a, 'applied', 200],
      [b, 'unchanged', 200],
      [c, 'conflict', 412],
      [d, 'refused', 409],
      [999_998, 'not_found', 404],
    ]);
    expect(results[2]!.petition?.moderation?.state).toBe('hidden');
    // The item's key is the single call's key.
    const single = await decide(a, { decision: 'hide', reason: 'Bulk hide' }, { key: 'bulk-a', version: 1 });
    expect(single.headers['idempotent-replayed']).toBe('true');
    expect(single.json()).toEqual(results[0]!.petition);
  });
});

describe('rejection reasons', () => {
  it('lists the seeded reasons; the administrator adds, edits and deletes one not in use', async () => {
    const list = (await api.request({ url: '/api/rejection-reasons', cookie: leader })).json<RejectionReason[]>();
    expect(list.map((r) => r.code).slice(0, 6)).toEqual(['duplicate', 'offensive', 'personal_information', 'not_government', 'unclear', 'advertising']);
    expect(list.find((r) => r.code === 'personal_information')?.hidden).toBe(true);

    const body = { title: 'Not a petition', publicText: 'It was a question, not a request for action.', hidden: false };
    expect((await api.request({ method: 'PUT', url: '/api/rejection-reasons/not_a_petition', payload: body, cookie: leader })).statusCode).toBe(403);
    const created = await api.request({ method: 'PUT', url: '/api/rejection-reasons/not_a_petition', payload: body, cookie: admin });
    expect(created.statusCode).toBe(201);
    const edited = await api.request({ method: 'PUT', url: '/api/rejection-reasons/not_a_petition', payload: { ...body, title: 'Not a request' }, cookie: admin });
    expect([edited.statusCode, edited.json().title]).toEqual([200, 'Not a request']);

    const id = await seedStaffPetition(api);
    await decide(id, { decision: 'reject', reasonCode: 'not_a_petition' });
    const inUse = await api.request({ method: 'DELETE', url: '/api/rejection-reasons/not_a_petition', cookie: admin });
    expect([inUse.statusCode, inUse.json().detail]).toEqual([409, MODERATION_ERRORS.rejectionReasonInUse]);
    // The tombstone shows the reason's current text.
    await api.request({ method: 'PUT', url: '/api/rejection-reasons/not_a_petition', payload: { ...body, publicText: 'Edited public text.' }, cookie: admin });
    expect((await api.request({ url: `/api/petitions/${id}` })).json().rejection.text).toBe('Edited public text.');
    await decide(id, { decision: 'restore' });
    expect((await api.request({ method: 'DELETE', url: '/api/rejection-reasons/not_a_petition', cookie: admin })).statusCode).toBe(200);
    expect((await api.request({ method: 'DELETE', url: '/api/rejection-reasons/not_a_petition', cookie: admin })).statusCode).toBe(404);
    const bad = await api.request({ method: 'PUT', url: '/api/rejection-reasons/x', payload: body, cookie: admin });
    expect([bad.statusCode, bad.json().detail]).toEqual([400, MODERATION_ERRORS.rejectionCodeFormat]);
    const audit = await api.context.db.selectFrom('audit_log').select('action').where('target_type', '=', 'rejection_reason').execute();
    expect(audit.map((row) => row.action)).toEqual(['rejection_reason.create', 'rejection_reason.update', 'rejection_reason.update', 'rejection_reason.delete']);
  });
});

describe('the queue', () => {
  it('puts the most reported first and shows each case with the creator’s other petitions and past moderation', async () => {
    await api.context.db.deleteFrom('petition_reports').execute();
    const creatorId = '720001';
    const older = await seedStaffPetition(api, { title: 'Older petition by the same creator', creatorId });
    await decide(older, { decision: 'reject', reasonCode: 'advertising' });
    const few = await seedStaffPetition(api, { title: 'Reported once', creatorId });
    const many = await seedStaffPetition(api, { title: 'Reported twice', creatorId });
    const cookies: string[] = [];
    for (let i = 0; i < 2; i += 1) cookies.push(await api.signIn({ id: String(730_000 + i), username: `q${i}`, displayName: `Q ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 }));
    await api.request({ method: 'POST', url: `/api/petitions/${few}/reports`, payload: { reason: 'spam' }, cookie: cookies[0] });
    for (const cookie of cookies) await api.request({ method: 'POST', url: `/api/petitions/${many}/reports`, payload: { reason: 'offensive' }, cookie });

    const queue = (await api.request({ url: '/api/moderation/queue?view=review&pageSize=50', cookie: leader })).json<ModerationQueue>();
    const ids = queue.items.map((item) => item.petition.id);
    expect(ids.indexOf(many)).toBeLessThan(ids.indexOf(few));
    const item = queue.items.find((c) => c.petition.id === many)!;
    expect(item.reports.map((r) => r.reporter.name).sort()).toEqual(['Q 0', 'Q 1']);
    expect(item.creatorPetitions.map((p) => [p.id, p.moderationState])).toEqual(
      expect.arrayContaining([[older, 'rejected'], [few, null]]),
    );
    expect(item.history.map((h) => [h.petitionId, h.action, h.reasonCode])).toEqual([[older, 'reject', 'advertising']]);

    const rejected = (await api.request({ url: '/api/moderation/queue?view=rejected', cookie: leader })).json<ModerationQueue>();
    expect(rejected.items.some((c) => c.petition.id === older)).toBe(true);
    expect(rejected.counts.rejected).toBe(rejected.total);

    const one = await api.request({ url: `/api/moderation/petitions/${many}`, cookie: leader });
    expect(one.json<ModerationCase>().openReports).toBe(2);
    expect(one.headers.etag).toBe(`"${one.json<ModerationCase>().petition.version}"`);
  });
});

describe('similar petitions', () => {
  it('finds open, visible petitions sharing words with a title, best first, at most five', async () => {
    const match = await seedStaffPetition(api, { title: 'Keep the flumbridge library open on Sundays' });
    await seedStaffPetition(api, { title: 'Flumbridge library should close', status: 'closed' });
    const hidden = await seedStaffPetition(api, { title: 'Flumbridge library hidden one' });
    await decide(hidden, { decision: 'hide', reason: 'Checking' });
    for (let i = 0; i < 6; i += 1) await seedStaffPetition(api, { title: `Other library petition ${i}` });

    const found = (await api.request({ url: '/api/petitions/similar?title=Open%20the%20Flumbridge%20library' })).json<SimilarPetitionList>();
    expect(found.items.length).toBeLessThanOrEqual(5);
    expect(found.items[0]?.id).toBe(match);
    expect(found.items.some((p) => p.id === hidden)).toBe(false);
    expect(found.items.every((p) => p.status !== 'closed')).toBe(true);
    expect((await api.request({ url: '/api/petitions/similar?title=the%20and%20of' })).json()).toEqual({ items: [] });
    expect((await api.request({ url: '/api/petitions/similar' })).statusCode).toBe(400);
  });
});
