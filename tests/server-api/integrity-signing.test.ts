/**
 * Signature integrity over real HTTP on a real database (both engines): ten young accounts signing
 * one petition within a minute show up as unusual signing with one staff chat message; invalidating
 * them with a preview leaves counts, statuses and first signers exact and keeps them from signing
 * again; restoring puts everything back as it was; cancelling stops a job between chunks.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE_LIMITS, createInvalidationRunner } from '../../src-server/integrity/invalidation-runner.ts';
import type { UserProfile } from '../../src-server/users/user-repository.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { InvalidationJob, InvalidationPreview, UnusualSigning } from '../../src-shared/domain/integrity-schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { addSignatures, insertPetition } from './public-test-data.ts';
import { findPetitionPage } from '../../src-server/petitions/petition-reads.ts';

const NOW = new Date('2026-11-28T12:00:00Z');
const YOUNG = '2026-11-20T10:00:00.000Z';
const OLD = '2019-05-01T10:00:00.000Z';

let api: TestApi;
let admin: string;
const youngCookies: string[] = [];
const youngIds: string[] = [];
let oldCookie: string;

const profile = (id: string, accountCreatedAt: string): UserProfile => ({
  id,
  username: `member${id}`,
  displayName: `Member ${id}`,
  avatarUrl: null,
  citizenRank: 1,
  governmentRank: 0,
  accountCreatedAt,
});

beforeAll(async () => {
  api = await startTestApi();
  api.setNow(NOW);
  admin = await api.signInAs('admin');
  for (let i = 0; i < 10; i += 1) {
    const id = String(61_000 + i);
    youngIds.push(id);
    youngCookies.push(await api.signIn(profile(id, YOUNG)));
  }
  oldCookie = await api.signIn(profile('61999', OLD));
});

afterAll(() => api.close());

beforeEach(async () => {
  api.setNow(NOW);
  await api.context.db.deleteFrom('invalidation_jobs').execute();
  await api.context.db.deleteFrom('petitions').execute();
  await api.context.db.deleteFrom('chat_messages').execute();
  await api.context.db.deleteFrom('site_settings').where('key', '=', 'signing_monitor_watermark').execute();
});

const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

/** The ten young accounts sign, three seconds apart. */
async function youngAccountsSign(petitionId: number, startSecond = 0): Promise<void> {
  for (const [index, cookie] of youngCookies.entries()) {
    api.setNow(at(startSecond + index * 3));
    const reply = await api.request({ method: 'POST', url: `/api/petitions/${petitionId}/sign`, cookie });
    expect(reply.statusCode, reply.body).toBe(200);
  }
}

/** The petition with its first signers as its page reads them (stored on SQLite, read from the signatures on PostgreSQL). */
async function petitionRow(id: number) {
  return (await findPetitionPage(api.context.db, id))!;
}

async function signatureRows(id: number) {
  return api.context.db.selectFrom('signatures').selectAll().where('petition_id', '=', id).orderBy('user_id').execute();
}

/** What must be exactly as before after a restore: everything a reader or a rule sees. */
async function visibleState(id: number) {
  const row = await petitionRow(id);
  return { count: row.signature_count, status: row.status, firstSigners: JSON.parse(row.first_signers) as unknown, rows: await signatureRows(id) };
}

const adminPost = (url: string, payload: object) => api.request({ method: 'POST', url, cookie: admin, payload });

async function job(id: number): Promise<InvalidationJob> {
  return (await api.request({ url: `/api/integrity/invalidations/${id}`, cookie: admin })).json();
}

async function auditActions(): Promise<string[]> {
  const rows = await api.context.db.selectFrom('audit_log').select('action').where('target_type', '=', 'invalidation').orderBy('id').execute();
  return rows.map((row) => row.action);
}

describe('unusual signing', () => {
  it('lists a petition ten young accounts signed within a minute, and queues one chat message for it', async () => {
    const petition = await insertPetition(api.context.db, { title: 'Rename the town square', created_at: at(-7 * 86_400).toISOString() });
    await addSignatures(api.context.db, petition.id, 1);
    await youngAccountsSign(petition.id);

    api.setNow(at(60));
    const scan = await api.context.integrity.monitor.scan();
    expect(scan).toMatchObject({ ran: true, counted: 10, alerted: [petition.id] });

    const screen = await api.request({ url: '/api/integrity/unusual-signing', cookie: admin });
    expect(screen.statusCode, screen.body).toBe(200);
    const body = screen.json<UnusualSigning>();
    const listed = body.petitions.find((entry) => entry.petitionId === petition.id);
    expect(listed).toMatchObject({
      title: 'Rename the town square',
      signatures: 11,
      lastHour: 10,
      youngLastHour: 10,
      peakMinute: 10,
      status: 'awaiting_government_response',
      firstSigners: [{ threshold: 10, young: 9 }],
    });
    expect(listed!.rules.sort()).toEqual(['burst', 'surge', 'young_share', 'young_threshold']);
    expect(listed!.alerts.map((alert) => alert.rule).sort()).toEqual(['burst', 'surge', 'young_share', 'young_threshold']);

    const messages = await api.context.db.selectFrom('chat_messages').selectAll().where('event', '=', 'integrity.unusual_signing').execute();
    expect(messages).toHaveLength(1);
    expect(messages[0]!.payload).toContain('Rename the town square');
    expect(messages[0]!.payload).toContain('10 signatures within one minute');

    // The same rules on the same day raise nothing new, however often the monitor looks.
    api.setNow(at(200));
    expect((await api.context.integrity.monitor.scan()).alerted).toEqual([]);
    expect(await api.context.db.selectFrom('chat_messages').select('id').execute()).toHaveLength(1);
  });

  it('counts a burst that straddles two passes of the monitor', async () => {
    const petition = await insertPetition(api.context.db, { created_at: at(-86_400).toISOString() });
    for (const [index, cookie] of youngCookies.slice(0, 5).entries()) {
      api.setNow(at(index * 2));
      await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie });
    }
    api.setNow(at(16));
    await api.context.integrity.monitor.scan();
    for (const [index, cookie] of youngCookies.slice(5).entries()) {
      api.setNow(at(17 + index * 2));
      await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie });
    }
    api.setNow(at(60));
    await api.context.integrity.monitor.scan();
    const body = (await api.request({ url: '/api/integrity/unusual-signing', cookie: admin })).json<UnusualSigning>();
    expect(body.petitions.find((entry) => entry.petitionId === petition.id)?.peakMinute).toBe(10);
  });
});

describe('invalidation with a preview, and restore', () => {
  it('previews, invalidates the young accounts exactly, refuses them a second signature, and restores everything as it was', async () => {
    const petition = await insertPetition(api.context.db, { created_at: at(-86_400).toISOString() });
    await addSignatures(api.context.db, petition.id, 5);
    await youngAccountsSign(petition.id);
    api.setNow(at(120));
    const before = await visibleState(petition.id);
    expect(before).toMatchObject({ count: 15, status: 'awaiting_government_response' });
    expect(before.rows).toHaveLength(15);

    const criteria = { petitionId: petition.id, accountYoungerThanDays: 30 };
    const preview = await api.request({ url: `/api/integrity/invalidations/preview?petition=${petition.id}&accountYoungerThanDays=30`, cookie: admin });
    expect(preview.statusCode, preview.body).toBe(200);
    const shown = preview.json<InvalidationPreview>();
    expect(shown).toMatchObject({ matching: 10, petitions: 1 });
    expect(shown.byPetition).toEqual([
      { petitionId: petition.id, title: petition.title, signatures: 15, matching: 10, signaturesAfter: 5, status: 'awaiting_government_response', statusAfter: 'open' },
    ]);
    expect(shown.sample.map((entry) => entry.userId).sort()).toEqual([...youngIds].sort());
    expect(shown.sample.every((entry) => entry.accountCreatedAt === YOUNG)).toBe(true);
    // The preview changed nothing.
    expect(await visibleState(petition.id)).toEqual(before);

    const requested = await api.request({
      method: 'POST',
      url: '/api/integrity/invalidations',
      cookie: admin,
      payload: { criteria, reason: 'Alternate accounts pushed it over 10', previewedMatching: shown.matching },
      headers: { 'idempotency-key': 'invalidate-young-1' },
    });
    expect(requested.statusCode, requested.body).toBe(202);
    const queued = requested.json<InvalidationJob>();
    expect(queued).toMatchObject({ kind: 'invalidate', state: 'queued', processed: 0 });
    // A retried request (the console's outbox) replays instead of queuing a second job.
    const replay = await api.request({
      method: 'POST',
      url: '/api/integrity/invalidations',
      cookie: admin,
      payload: { criteria, reason: 'Alternate accounts pushed it over 10', previewedMatching: shown.matching },
      headers: { 'idempotency-key': 'invalidate-young-1' },
    });
    expect(replay.json().id).toBe(queued.id);

    await api.context.integrity.runner.runUntilIdle();
    expect(await job(queued.id)).toMatchObject({ state: 'finished', total: 10, processed: 10, petitionsChanged: 1 });

    const after = await petitionRow(petition.id);
    expect(after.signature_count).toBe(5);
    expect(after.status).toBe('open');
    const rows = await signatureRows(petition.id);
    expect(rows.map((row) => row.user_id)).toEqual(before.rows.filter((row) => !youngIds.includes(row.user_id)).map((row) => row.user_id));
    expect((JSON.parse(after.first_signers) as { id: string }[]).map((signer) => signer.id).sort()).toEqual(rows.map((row) => row.user_id).sort());
    const kept = await api.context.db.selectFrom('invalidated_signatures').selectAll().where('petition_id', '=', petition.id).execute();
    expect(kept.map((row) => row.user_id).sort()).toEqual([...youngIds].sort());
    expect(kept.every((row) => row.job_id === queued.id)).toBe(true);

    // Not counted anywhere, and the member cannot sign again (told before trying).
    expect((await api.request({ url: `/api/petitions/${petition.id}/count` })).json()).toMatchObject({ signatures: 5, status: 'open' });
    expect((await api.request({ url: `/api/petitions/${petition.id}/signers?limit=100` })).json().total).toBe(5);
    const page = (await api.request({ url: `/api/petitions/${petition.id}`, cookie: youngCookies[0] })).json();
    expect(page).toMatchObject({ signatures: 5, signed_by_viewer: false, viewer_signing_refusal: ERRORS.signatureInvalidated });
    const again = await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie: youngCookies[0] });
    expect(again.statusCode).toBe(403);
    expect(again.json().detail).toBe(ERRORS.signatureInvalidated);
    expect((await petitionRow(petition.id)).signature_count).toBe(5);
    // Everyone else signs as before.
    expect((await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie: oldCookie })).json()).toEqual({ signatures: 6, signed: true });
    expect((await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/unsign`, cookie: oldCookie })).json()).toEqual({ signatures: 5, signed: false });

    const restore = await adminPost(`/api/integrity/invalidations/${queued.id}/restore`, { reason: 'They were genuine after all' });
    expect(restore.statusCode, restore.body).toBe(202);
    const restoreJob = restore.json<InvalidationJob>();
    expect(restoreJob).toMatchObject({ kind: 'restore', restoresJobId: queued.id, state: 'queued' });
    await api.context.integrity.runner.runUntilIdle();
    expect(await job(restoreJob.id)).toMatchObject({ state: 'finished', total: 10, processed: 10 });
    expect(await job(queued.id)).toMatchObject({ restoredByJobId: restoreJob.id });
    expect(await visibleState(petition.id)).toEqual(before);
    expect(await api.context.db.selectFrom('invalidated_signatures').select('user_id').execute()).toEqual([]);

    const twice = await adminPost(`/api/integrity/invalidations/${queued.id}/restore`, { reason: 'Again' });
    expect(twice.statusCode).toBe(409);
    expect(await auditActions()).toEqual([
      'signatures.invalidate',
      'signatures.job_started',
      'signatures.job_finished',
      'signatures.restore',
      'signatures.job_started',
      'signatures.job_finished',
    ]);
  });

  it('keeps a response already given and a status set by hand', async () => {
    const responded = await insertPetition(api.context.db, { government_response: 'We will consider it.', status: 'government_response', created_at: at(-86_400).toISOString() });
    const byHand = await insertPetition(api.context.db, { created_at: at(-86_400).toISOString() });
    for (const petition of [responded, byHand]) {
      await addSignatures(api.context.db, petition.id, 2);
      await youngAccountsSign(petition.id);
    }
    expect((await petitionRow(responded.id)).status).toBe('government_response');
    await api.context.db.updateTable('petitions').set({ status: 'awaiting_debate_in_parliament' }).where('id', '=', byHand.id).execute();

    api.setNow(at(200));
    const requested = await adminPost('/api/integrity/invalidations', { criteria: { petitionId: null, accountYoungerThanDays: 30 }, reason: 'Alternate accounts' });
    expect(requested.statusCode, requested.body).toBe(202);
    await api.context.integrity.runner.runUntilIdle();
    expect(await job(requested.json().id)).toMatchObject({ state: 'finished', total: 20, processed: 20, petitionsChanged: 2 });
    expect(await petitionRow(responded.id)).toMatchObject({ signature_count: 2, status: 'government_response', government_response: 'We will consider it.' });
    expect(await petitionRow(byHand.id)).toMatchObject({ signature_count: 2, status: 'awaiting_debate_in_parliament' });
  });

  it('invalidates one member on every petition by user id, and only what was signed before the request', async () => {
    const first = await insertPetition(api.context.db);
    const second = await insertPetition(api.context.db);
    for (const petition of [first, second]) {
      await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie: youngCookies[3] });
      await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie: youngCookies[4] });
    }
    api.setNow(at(30));
    const requested = await adminPost('/api/integrity/invalidations', { criteria: { petitionId: null, userIds: [youngIds[3]] }, reason: 'A known alternate account' });
    // Signed after the request: not part of it.
    const third = await insertPetition(api.context.db);
    api.setNow(at(31));
    await api.request({ method: 'POST', url: `/api/petitions/${third.id}/sign`, cookie: youngCookies[3] });
    await api.context.integrity.runner.runUntilIdle();
    expect(await job(requested.json().id)).toMatchObject({ state: 'finished', total: 2, processed: 2, petitionsChanged: 2 });
    for (const petition of [first, second]) {
      expect((await signatureRows(petition.id)).map((row) => row.user_id)).toEqual([youngIds[4]]);
      expect((await petitionRow(petition.id)).signature_count).toBe(1);
    }
    expect((await petitionRow(third.id)).signature_count).toBe(1);
  });

  it('cancels a queued job at once, and a running one between chunks; a cancelled job can be restored', async () => {
    const petition = await insertPetition(api.context.db, { created_at: at(-86_400).toISOString() });
    await youngAccountsSign(petition.id);
    api.setNow(at(60));
    const before = await visibleState(petition.id);

    const queued = (await adminPost('/api/integrity/invalidations', { criteria: { petitionId: petition.id }, reason: 'Test' })).json<InvalidationJob>();
    const cancelled = await adminPost(`/api/integrity/invalidations/${queued.id}/cancel`, {});
    expect(cancelled.json()).toMatchObject({ state: 'cancelled', processed: 0, cancelRequested: true });
    expect((await adminPost(`/api/integrity/invalidations/${queued.id}/cancel`, {})).statusCode).toBe(409);

    const running = (await adminPost('/api/integrity/invalidations', { criteria: { petitionId: petition.id }, reason: 'Test' })).json<InvalidationJob>();
    // A runner of its own, one signature per chunk with a pause, so the cancel lands mid-job.
    const slow = createInvalidationRunner(api.context, { chunkSize: 1, pauseMs: 40 });
    const work = slow.runUntilIdle();
    for (let i = 0; i < 200 && (await job(running.id)).processed < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const cancel = await adminPost(`/api/integrity/invalidations/${running.id}/cancel`, {});
    expect(cancel.statusCode, cancel.body).toBe(200);
    await work;
    const stopped = await job(running.id);
    expect(stopped.state).toBe('cancelled');
    expect(stopped.processed).toBeGreaterThanOrEqual(2);
    expect(stopped.processed).toBeLessThan(10);
    const partial = await petitionRow(petition.id);
    expect(partial.signature_count).toBe(10 - stopped.processed);
    expect((await signatureRows(petition.id)).length).toBe(partial.signature_count);

    const restore = (await adminPost(`/api/integrity/invalidations/${running.id}/restore`, { reason: 'Undo' })).json<InvalidationJob>();
    await api.context.integrity.runner.runUntilIdle();
    expect(await job(restore.id)).toMatchObject({ state: 'finished', processed: stopped.processed });
    expect(await visibleState(petition.id)).toEqual(before);
    expect(await auditActions()).toContain('signatures.job_cancelled');
  });
});

describe('the largest chunk', () => {
  it('moves and restores as many signatures as a chunk may hold in one step (PostgreSQL binds at most 65,535 values a statement)', async () => {
    const size = CHUNK_SIZE_LIMITS.max[api.context.dialect];
    const petition = await insertPetition(api.context.db, { created_at: at(-86_400).toISOString() });
    await addSignatures(api.context.db, petition.id, size);
    await api.context.db.updateTable('petitions').set({ signature_count: size }).where('id', '=', petition.id).execute();
    const invalidation = (await adminPost('/api/integrity/invalidations', { criteria: { petitionId: petition.id }, reason: 'Test' })).json<InvalidationJob>();
    const runner = createInvalidationRunner(api.context, { chunkSize: size });
    await runner.runUntilIdle();
    expect(await job(invalidation.id)).toMatchObject({ state: 'finished', processed: size, lastError: null });
    expect((await petitionRow(petition.id)).signature_count).toBe(0);
    const restore = (await adminPost(`/api/integrity/invalidations/${invalidation.id}/restore`, { reason: 'Undo' })).json<InvalidationJob>();
    await runner.runUntilIdle();
    expect(await job(restore.id)).toMatchObject({ state: 'finished', processed: size, lastError: null });
    expect((await petitionRow(petition.id)).signature_count).toBe(size);
  }, 120_000);
});

describe('invalidation with counts written behind (a large site)', () => {
  let large: TestApi;
  beforeAll(async () => {
    large = await startTestApi({}, { largeSitePetitions: 1 });
  });
  afterAll(() => large.close());

  it('counts the signatures still pending in memory, so the stored count is exact afterwards', async () => {
    const adminCookie = await large.signInAs('admin');
    const petition = await insertPetition(large.context.db);
    await insertPetition(large.context.db);
    const cookies: string[] = [];
    for (let i = 0; i < 12; i += 1) cookies.push(await large.signIn(profile(String(62_000 + i), i < 4 ? YOUNG : OLD)));
    for (const cookie of cookies.slice(0, 9)) await large.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie });
    const requested = await large.request({
      method: 'POST',
      url: '/api/integrity/invalidations',
      cookie: adminCookie,
      payload: { criteria: { petitionId: petition.id, accountYoungerThanDays: 30 }, reason: 'Young accounts' },
    });
    expect(requested.statusCode).toBe(202);
    await large.context.integrity.runner.runUntilIdle();
    for (const cookie of cookies.slice(9)) await large.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie });
    await large.context.signatureCounts.settle();
    const rows = await large.context.db.selectFrom('signatures').select('user_id').where('petition_id', '=', petition.id).execute();
    const stored = await large.context.db.selectFrom('petitions').select('signature_count').where('id', '=', petition.id).executeTakeFirstOrThrow();
    expect(rows).toHaveLength(8);
    expect(stored.signature_count).toBe(8);
  });
});
