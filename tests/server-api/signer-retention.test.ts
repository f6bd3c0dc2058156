/**
 * Signer retention (docs/privacy.md#signer-retention): the signers of petitions closed longer than
 * SIGNER_RETENTION_MONTHS are anonymised by a job one node runs at a time, resumable after a kill;
 * counts, recounts, the chart and the first signers' initials stay, and no member's id or name does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAnonymousUserId } from '../../src-shared/domain/privacy-constants.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { initialsOf } from '../../src-server/auth/initials-avatar.ts';
import { createSignerRetention, SIGNER_RETENTION_LEASE_MS } from '../../src-server/privacy/signer-retention.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { findPetitionPage } from '../../src-server/petitions/petition-reads.ts';

const NOW = new Date('2027-01-15T12:00:00Z');
const NAMES = ['Alice Smith', 'Bob Jones', 'carol', 'Dan Le Roux', 'Eve Online'];

let api: TestApi;
let oldWithNames: number;
let oldSynthetic: number;
let recentlyClosed: number;
let open: number;

async function signRows(petitionId: number, names: readonly string[], startAt: Date): Promise<void> {
  const rows = names.map((name, index) => ({
    petition_id: petitionId,
    user_id: String(7_100_000 + index),
    username: name.replace(/\s/g, '').toLowerCase(),
    display_name: name,
    signed_at: new Date(startAt.getTime() + index * 3_600_000).toISOString(),
  }));
  await api.context.db.insertInto('signatures').values(rows).execute();
  await api.context.db.updateTable('petitions').set({ signature_count: names.length }).where('id', '=', petitionId).execute();
}

async function snapshot(id: number) {
  const petition = (await api.request({ url: `/api/petitions/${id}` })).json<Petition & { signers: { id: string; displayName: string }[] }>();
  const chart = (await api.request({ url: `/api/petitions/${id}/signatures-by-hour` })).json<unknown>();
  const rows = await api.context.db.selectFrom('signatures').select(['user_id', 'username', 'display_name']).where('petition_id', '=', id).execute();
  return { count: petition.signatures, signers: petition.signers, chart, rows };
}

beforeAll(async () => {
  api = await startTestApi({ signerRetentionMonths: 6 });
  api.setNow(NOW);
  await seedTerm(api, { name: 'Term R', startDate: '2025-01-01', endDate: '2027-12-31' });
  const closedLongAgo = { status: 'closed' as const, closedAt: '2026-05-01T10:00:00.000Z', createdAt: new Date('2026-04-01T10:00:00Z') };
  oldWithNames = (await seedPetition(api, { ...closedLongAgo, title: 'Old petition with named signers' })).id;
  await signRows(oldWithNames, NAMES, new Date('2026-04-02T10:00:00Z'));
  oldSynthetic = (await seedPetition(api, { ...closedLongAgo, closedAt: '2026-06-01T10:00:00.000Z', signatures: 23 })).id;
  recentlyClosed = (await seedPetition(api, { status: 'closed', closedAt: '2026-12-01T10:00:00.000Z', createdAt: new Date('2026-11-01T10:00:00Z'), signatures: 4 })).id;
  open = (await seedPetition(api, { signatures: 3, createdAt: new Date('2026-04-01T10:00:00Z') })).id;
  // A member's mute and report of the old petition tie them to it too.
  await api.context.db.insertInto('feed_mutes').values({ user_id: '7100000', petition_id: oldWithNames, created_at: NOW.toISOString() }).execute();
  await api.context.db
    .insertInto('petition_reports')
    .values({ petition_id: oldWithNames, reporter_id: '7100001', reason: 'offensive', duplicate_of: null, details: null, reported_at: NOW.toISOString(), settled_at: null, settled_by: null })
    .execute();
});
afterAll(async () => api.close());

describe('anonymising the signers of petitions closed past retention', () => {
  it('is resumable: a pass cut short is continued by another node once its lease lapses, and nothing is done twice', async () => {
    const before = { names: await snapshot(oldWithNames), synthetic: await snapshot(oldSynthetic), recent: await snapshot(recentlyClosed), open: await snapshot(open) };

    // Node A anonymises one batch of 4 rows and "dies": its lease stays behind.
    const nodeA = createSignerRetention(api.context, { owner: 'node-a', batchRows: 4 });
    expect(await nodeA.runPass({ maxBatches: 1 })).toEqual({ anonymised: 4, petitions: 0, finished: false });
    const afterKill = await api.context.db.selectFrom('signatures').select('user_id').where('petition_id', '=', oldWithNames).execute();
    const firstIds = afterKill.map((row) => row.user_id).filter(isAnonymousUserId);
    expect(firstIds).toHaveLength(4);

    // Node B may not take over while A's lease holds; once it lapsed, B finishes the walk.
    const nodeB = createSignerRetention(api.context, { owner: 'node-b', batchRows: 4 });
    expect(await nodeB.runPass()).toBeNull();
    api.setNow(new Date(NOW.getTime() + SIGNER_RETENTION_LEASE_MS + 1_000));
    const pass = await nodeB.runPass();
    expect(pass).toMatchObject({ anonymised: NAMES.length - 4 + 23, petitions: 2, finished: true });
    // A's work was kept, not redone.
    const ids = (await api.context.db.selectFrom('signatures').select('user_id').where('petition_id', '=', oldWithNames).execute()).map((row) => row.user_id);
    expect(ids).toEqual(expect.arrayContaining(firstIds));
    // Done for this interval: the next look does nothing.
    expect(await nodeB.runPass()).toBeNull();

    const after = { names: await snapshot(oldWithNames), synthetic: await snapshot(oldSynthetic), recent: await snapshot(recentlyClosed), open: await snapshot(open) };
    const petitionIds = { names: oldWithNames, synthetic: oldSynthetic };
    for (const key of ['names', 'synthetic'] as const) {
      // Counts, the recount and the chart of signatures over time are as they were.
      expect(after[key].count).toBe(before[key].count);
      expect(after[key].rows).toHaveLength(before[key].count);
      expect(after[key].chart).toEqual(before[key].chart);
      // No member's id or name is left, in the rows or in the listed first signers.
      for (const row of after[key].rows) {
        expect(isAnonymousUserId(row.user_id)).toBe(true);
        expect(row.username).toBe('');
      }
      expect(after[key].signers.map((s) => s.id).every(isAnonymousUserId)).toBe(true);
      const stored = (await findPetitionPage(api.context.db, petitionIds[key]))!;
      for (const old of before[key].rows) expect(stored.first_signers).not.toContain(`"${old.user_id}"`);
    }
    // The first signers keep their initials, in signing order; every anonymous id is different.
    expect(after.names.signers.map((s) => s.displayName)).toEqual(NAMES.map(initialsOf));
    expect(new Set(after.names.rows.map((row) => row.user_id)).size).toBe(NAMES.length);
    // Petitions closed more recently, and open ones, are untouched.
    expect(after.recent).toEqual(before.recent);
    expect(after.open).toEqual(before.open);
    // What else tied members to the old petition: their mute goes, their report stays without them.
    expect(await api.context.db.selectFrom('feed_mutes').selectAll().where('petition_id', '=', oldWithNames).execute()).toEqual([]);
    const report = await api.context.db.selectFrom('petition_reports').select('reporter_id').where('petition_id', '=', oldWithNames).executeTakeFirstOrThrow();
    expect(isAnonymousUserId(report.reporter_id)).toBe(true);
  });

  it('reaches a petition closed after the cursor once it has been closed long enough', async () => {
    const retention = createSignerRetention(api.context, { owner: 'node-c' });
    api.setNow(new Date('2027-06-02T12:00:00Z'));
    expect(await retention.runPass()).toMatchObject({ anonymised: 4, petitions: 1, finished: true });
    const rows = await api.context.db.selectFrom('signatures').select('user_id').where('petition_id', '=', recentlyClosed).execute();
    expect(rows.map((row) => row.user_id).every(isAnonymousUserId)).toBe(true);
    const untouched = await api.context.db.selectFrom('signatures').select('user_id').where('petition_id', '=', open).execute();
    expect(untouched.some((row) => isAnonymousUserId(row.user_id))).toBe(false);
  });
});
