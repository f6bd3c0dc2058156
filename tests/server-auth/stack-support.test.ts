/** The end-to-end stack's seeding helpers write data the real API then serves. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPetition, seedTerm, SYNTHETIC_USER_BASE } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { appFetch } from './browser.ts';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
});

afterAll(async () => {
  await stack?.close();
});

describe('seedTerm', () => {
  it('creates a term that is current at context.now() by default', async () => {
    const term = await seedTerm(stack.context, { name: 'Seeded Term' });
    const status = await appFetch(stack, null, '/api/site-status');
    expect(status.body).toMatchObject({ inSession: true });
    const terms = await appFetch(stack, null, '/api/parliamentary-terms');
    expect(terms.body).toContainEqual(expect.objectContaining({ id: term.id, name: 'Seeded Term', status: 'current', statusOverride: null }));
  });
});

describe('seedPetition', () => {
  it('creates a petition in the current term with N signatures from synthetic users', async () => {
    const seeded = await seedPetition(stack.context, { title: 'Seeded with signatures', signatures: 250, tags: ['Budget', 'Justice'] });
    const detail = await appFetch(stack, null, `/api/petitions/${seeded.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ title: 'Seeded with signatures', signatures: 250, tags: ['Budget', 'Justice'], status: 'open' });
    expect(detail.body.termId).toEqual(expect.any(Number));
    expect(detail.body.signers[0]).toMatchObject({ id: String(SYNTHETIC_USER_BASE + 1), displayName: 'Signer 1' });
    const rows = await stack.context.db.selectFrom('signatures').select((eb) => eb.fn.countAll<number>().as('n')).where('petition_id', '=', seeded.id).executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(250);
  });

  it('is found by tag and search like any other petition', async () => {
    const seeded = await seedPetition(stack.context, { title: 'Searchable lighthouse keepers petition', tags: ['Royal Family'] });
    const byTag = await appFetch(stack, null, `/api/petitions?tag=${encodeURIComponent('Royal Family')}`);
    expect(byTag.body.items.map((p: { id: number }) => p.id)).toContain(seeded.id);
    const bySearch = await appFetch(stack, null, '/api/petitions?search=lighthouse');
    expect(bySearch.body.items.map((p: { id: number }) => p.id)).toContain(seeded.id);
  });
});
