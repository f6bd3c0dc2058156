import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { HourlySignatures, PetitionCount, PetitionDetail, SignersPage } from '../../src-shared/domain/schemas.ts';
import { startTestApi, type TestApi, ROLE_PROFILES } from '../support/api-harness.ts';
import { addSignatures, insertPetition } from './public-test-data.ts';

let api: TestApi;
let petitionId: number;
let emptyId: number;

beforeAll(async () => {
  api = await startTestApi();
  const db = api.context.db;
  const row = await insertPetition(db, {
    title: 'Keep the royal parks free to enter',
    government_response: 'The parks will stay free.',
    government_response_meta: JSON.stringify({ addedBy: 'Pat', addedByRole: 'Prime Minister', addedAt: '2026-02-01T00:00:00.000Z', editedBy: null, editedByRole: null, editedAt: null }),
    debate_info: JSON.stringify({ status: 'scheduled', date: '2026-06-01', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null }),
    version: 4,
  });
  petitionId = row.id;
  // 25 signatures: 09:00–09:59 gets 3, 10:00 gets 20, 13:00 gets 2 (UTC, 2026-01-01).
  await addSignatures(db, petitionId, 25, {
    signedAt: (i) =>
      i < 3
        ? `2026-01-01T09:${String(10 + i).padStart(2, '0')}:00.000Z`
        : i < 23
          ? `2026-01-01T10:${String(i).padStart(2, '0')}:00.000Z`
          : `2026-01-01T13:0${i - 23}:00.000Z`,
  });
  emptyId = (await insertPetition(db, { title: 'Nobody has signed this yet' })).id;
});

afterAll(async () => {
  await api.close();
});

describe('GET /api/petitions/:id', () => {
  it('returns the petition, its first 10 signers oldest first and the version as ETag', async () => {
    const response = await api.request({ url: `/api/petitions/${petitionId}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers.etag).toBe('"4"');
    const body = response.json<PetitionDetail>();
    expect(body).toMatchObject({
      id: petitionId,
      title: 'Keep the royal parks free to enter',
      signatures: 25,
      governmentResponse: 'The parks will stay free.',
      governmentResponseMeta: { addedBy: 'Pat', addedByRole: 'Prime Minister' },
      debateInfo: { status: 'scheduled', date: '2026-06-01' },
      version: 4,
      signed_by_viewer: false,
    });
    expect(body.signers).toHaveLength(10);
    expect(body.signers[0]).toEqual({
      id: '500001',
      username: 'signer1',
      displayName: 'Signer 1',
      avatar: '/avatar/500001',
      signed_at: '2026-01-01T09:10:00.000Z',
    });
    const times = body.signers.map((s) => s.signed_at);
    expect([...times].sort()).toEqual(times);
  });

  it('tells a signed-in viewer whether they signed', async () => {
    const cookie = await api.signInAs('citizen');
    const before = await api.request({ url: `/api/petitions/${petitionId}`, cookie });
    expect(before.json<PetitionDetail>().signed_by_viewer).toBe(false);
    await api.context.db
      .insertInto('signatures')
      .values({ petition_id: petitionId, user_id: ROLE_PROFILES.citizen.id, username: 'citizen', display_name: 'Citizen Kane', signed_at: '2026-01-02T00:00:00.000Z' })
      .execute();
    try {
      const after = await api.request({ url: `/api/petitions/${petitionId}`, cookie });
      expect(after.json<PetitionDetail>().signed_by_viewer).toBe(true);
    } finally {
      await api.context.db.deleteFrom('signatures').where('user_id', '=', ROLE_PROFILES.citizen.id).execute();
    }
  });

  it('shows no signers for an unsigned petition', async () => {
    const body = (await api.request({ url: `/api/petitions/${emptyId}` })).json<PetitionDetail>();
    expect(body.signers).toEqual([]);
    expect(body.signatures).toBe(0);
  });

  it("answers 404 'Petition not found' for a missing petition", async () => {
    const response = await api.request({ url: '/api/petitions/999999' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: 404, detail: ERRORS.petitionNotFound });
  });

  it.each(['abc', '-1', '0', '1.5', '1e3', '0x10', '%20' + '12', '99999999999999999999', '9007199254740993'])(
    'answers 400 for the id %j, never 500',
    async (id) => {
      const response = await api.request({ url: `/api/petitions/${id}` });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ detail: string }>().detail).toContain('A petition id is a positive whole number');
    },
  );
});

describe('GET /api/petitions/:id/signers', () => {
  it('pages through the signers oldest first, with the total', async () => {
    const first = (await api.request({ url: `/api/petitions/${petitionId}/signers?limit=10` })).json<SignersPage>();
    const rest = (await api.request({ url: `/api/petitions/${petitionId}/signers?offset=10&limit=100` })).json<SignersPage>();
    expect(first.total).toBe(25);
    expect(first.items).toHaveLength(10);
    expect(rest.items).toHaveLength(15);
    const all = [...first.items, ...rest.items].map((s) => s.id);
    expect(new Set(all).size).toBe(25);
    expect(rest.items.at(-1)).toMatchObject({ id: '500025', avatar: '/avatar/500025' });
  });

  it('defaults to the first 10', async () => {
    const page = (await api.request({ url: `/api/petitions/${petitionId}/signers` })).json<SignersPage>();
    expect(page.items).toHaveLength(10);
  });

  it('answers 404 for a missing petition and 400 for bad paging', async () => {
    expect((await api.request({ url: '/api/petitions/999999/signers' })).statusCode).toBe(404);
    for (const query of ['limit=0', 'limit=101', 'offset=-1', 'offset=x', 'page=2']) {
      const response = await api.request({ url: `/api/petitions/${petitionId}/signers?${query}` });
      expect(response.statusCode, query).toBe(400);
    }
  });
});

describe('GET /api/petitions/:id/count', () => {
  it('is small and publicly cacheable for a few seconds', async () => {
    const response = await api.request({ url: `/api/petitions/${petitionId}/count` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=10');
    expect(response.json<PetitionCount>()).toEqual({ id: petitionId, signatures: 25, status: 'open' });
  });

  it('answers 404 and 400 without caching them', async () => {
    const missing = await api.request({ url: '/api/petitions/999999/count' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect((await api.request({ url: '/api/petitions/x/count' })).statusCode).toBe(400);
  });
});

describe('GET /api/petitions/:id/signatures-by-hour', () => {
  it('counts signatures per UTC hour, oldest first, leaving out empty hours', async () => {
    const response = await api.request({ url: `/api/petitions/${petitionId}/signatures-by-hour` });
    expect(response.statusCode).toBe(200);
    expect(response.json<HourlySignatures>().points).toEqual([
      { hour: '2026-01-01T09:00:00.000Z', count: 3 },
      { hour: '2026-01-01T10:00:00.000Z', count: 20 },
      { hour: '2026-01-01T13:00:00.000Z', count: 2 },
    ]);
  });

  it('answers an empty chart for an unsigned petition, 404 for a missing one', async () => {
    expect((await api.request({ url: `/api/petitions/${emptyId}/signatures-by-hour` })).json()).toEqual({ points: [] });
    expect((await api.request({ url: '/api/petitions/999999/signatures-by-hour' })).statusCode).toBe(404);
  });
});
