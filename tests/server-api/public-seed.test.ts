import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEBATE_STATUSES, PETITION_STATUSES, TAGS } from '../../src-shared/domain/constants.ts';
import type { HomeStats, HourlySignatures, PetitionList } from '../../src-shared/domain/schemas.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import { termStatus } from '../../src-shared/rules/terms.ts';
import { closeExpiredPetitions } from '../../src-server/closure/closure-service.ts';
import { toPetition } from '../../src-server/petitions/petition-record.ts';
import { seedDemoData } from '../../src-server/dev/seed/demo-seed.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { countRows } from '../support/fixtures.ts';

const NOW = new Date('2026-11-21T12:00:00.000Z');

let api: TestApi;
let petitions: Petition[];

beforeAll(async () => {
  api = await startTestApi();
  api.setNow(NOW);
  await seedDemoData(api.context.db, NOW);
  petitions = (await api.context.db.selectFrom('petitions').selectAll().execute()).map(toPetition);
});

afterAll(async () => {
  await api.close();
});

describe('seedDemoData', () => {
  it('creates a completed earlier term and a current one', async () => {
    const terms = await api.context.db.selectFrom('terms').selectAll().execute();
    const statuses = terms.map((t) => termStatus({ startDate: t.start_date, endDate: t.end_date, statusOverride: t.status as never }, NOW));
    expect(statuses).toContain('completed');
    expect(statuses.filter((s) => s === 'current')).toHaveLength(1);
  });

  it('covers every tag, every status, both closure reasons and every kind of debate outcome', () => {
    expect(petitions.length).toBeGreaterThanOrEqual(35);
    expect(new Set(petitions.flatMap((p) => p.tags))).toEqual(new Set(TAGS));
    expect(new Set(petitions.map((p) => p.status))).toEqual(new Set(PETITION_STATUSES));
    expect(new Set(petitions.map((p) => p.closureReason).filter(Boolean))).toEqual(new Set(['term_ended', 'three_weeks_insufficient_signatures']));
    expect(new Set(petitions.map((p) => p.debateInfo?.status).filter(Boolean))).toEqual(new Set(DEBATE_STATUSES));
    expect(petitions.filter((p) => p.governmentResponse && p.governmentResponseMeta).length).toBeGreaterThan(5);
  });

  it('includes petitions either side of both thresholds', () => {
    const counts = new Set(petitions.map((p) => p.signatures));
    for (const n of [9, 10, 11, 19, 20, 21]) expect(counts.has(n), `a petition with ${n} signatures`).toBe(true);
  });

  it('stores statuses that agree with the shared rules', () => {
    for (const p of petitions.filter((p) => p.status !== 'closed')) {
      expect(automaticStatus(p), p.title).toBe(p.status);
    }
  });

  it('backs every count with distinct signature rows from about thirty demo users, spread over time', async () => {
    const db = api.context.db;
    const rows = await db.selectFrom('signatures').select(['petition_id', 'user_id', 'signed_at']).execute();
    for (const p of petitions) {
      const own = rows.filter((r) => r.petition_id === p.id);
      expect(own, p.title).toHaveLength(p.signatures);
      expect(own.every((r) => r.signed_at >= p.created && r.signed_at <= NOW.toISOString())).toBe(true);
    }
    expect(new Set(rows.map((r) => r.user_id)).size).toBe(30);
    const busiest = [...petitions].sort((a, b) => b.signatures - a.signatures)[0]!;
    const chart = (await api.request({ url: `/api/petitions/${busiest.id}/signatures-by-hour` })).json<HourlySignatures>();
    expect(chart.points.length).toBeGreaterThan(5);
  });

  it('has nothing the closure rules would close straight away', async () => {
    expect(await closeExpiredPetitions(api.context.db, NOW)).toEqual({ insufficientSignatures: 0, termEnded: 0 });
  });

  it('feeds the home page and the list', async () => {
    const stats = (await api.request({ url: '/api/stats' })).json<HomeStats>();
    expect(stats).toMatchObject({ termName: 'Term 87' });
    expect(stats.created).toBeGreaterThan(20);
    expect(stats.responded).toBeGreaterThan(3);
    expect(stats.debated).toBeGreaterThanOrEqual(2);
    const debated = (await api.request({ url: '/api/petitions?status=debated' })).json<PetitionList>();
    expect(debated.total).toBeGreaterThanOrEqual(2);
  });

  it('does nothing on a database that already has content', async () => {
    await seedDemoData(api.context.db, NOW);
    expect(await countRows(api, 'petitions')).toBe(petitions.length);
  });
});
