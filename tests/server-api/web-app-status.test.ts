/**
 * The page shell answers with the truth: 200 for the app's pages and existing petitions, 404 (still
 * the shell, so the app shows its not-found screen) for unknown paths and petitions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPetition } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let petitionId = 0;

beforeAll(async () => {
  stack = await startStack();
  petitionId = (await seedPetition(stack.context, { title: 'A petition that exists', termId: null })).id;
});
afterAll(async () => {
  await stack?.close();
});

async function get(path: string) {
  const response = await fetch(`${stack.baseUrl}${path}`, { redirect: 'manual' });
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
}

describe('page shell status codes', () => {
  it.each([
    '/',
    '/petitions',
    '/petitions?term=3&page=2',
    '/petitions/term/abc',
    '/create-petition',
    '/privacypolicy',
    '/terms-and-conditions',
    '/term-management',
    '/auth/callback?error=access_denied',
  ])('%s answers 200 with the page shell', async (path) => {
    const { status, type, body } = await get(path);
    expect(status).toBe(200);
    expect(type).toContain('text/html');
    expect(body).toContain('<div id="root">');
  });

  it('an existing petition answers 200, also with a trailing slash', async () => {
    expect((await get(`/petition/${petitionId}`)).status).toBe(200);
    expect((await get(`/petition/${petitionId}/`)).status).toBe(200);
  });

  it.each(['/petition/999999', '/petition/abc', '/petition/0', '/petition/1e2', '/no-such-page', '/petitions/extra/levels', '/petition'])(
    '%s answers 404 with the page shell',
    async (path) => {
      const { status, type, body } = await get(path);
      expect(status).toBe(404);
      expect(type).toContain('text/html');
      expect(body).toContain('<div id="root">');
    },
  );

  it('a deleted petition answers 404', async () => {
    const doomed = await seedPetition(stack.context, { title: 'A petition about to go', termId: null });
    expect((await get(`/petition/${doomed.id}`)).status).toBe(200);
    await stack.context.db.deleteFrom('petitions').where('id', '=', doomed.id).execute();
    expect((await get(`/petition/${doomed.id}`)).status).toBe(404);
  });

  it('unknown API routes and files stay Problem Details 404s', async () => {
    for (const path of ['/api/no-such-route', '/missing-file.js']) {
      const { status, type } = await get(path);
      expect(status, path).toBe(404);
      expect(type, path).toContain('application/problem+json');
    }
  });
});
