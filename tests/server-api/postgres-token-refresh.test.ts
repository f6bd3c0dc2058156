/**
 * Roblox refresh tokens are single use and the local provider rotates them, as Roblox does. Two
 * application nodes on one PostgreSQL database (always PostgreSQL, whatever TEST_DATABASE says),
 * one provider: when a session's access token has expired and the same session calls both nodes
 * at the same moment, both would refresh with the same refresh token and the loser's
 * invalid_grant would end the session. Held under the session's cross-node lock, the second node
 * reads the tokens the first stored instead: the session survives and both calls succeed.
 */
import { refreshTokenGrant } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type ServerApp } from '../../src-server/app.ts';
import { createAppContext } from '../../src-server/context.ts';
import { openDatabase, type OpenDatabase } from '../../src-server/db/database.ts';
import { appFetch, signInAs } from '../server-auth/browser.ts';
import { serverClient, sessionCookie, sessionRow, storedTokens } from '../server-auth/support.ts';
import { freePort, startStack, type Stack } from '../support/stack.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';

/** A test-only unsafe route: stale ranks are re-checked at Roblox before it runs, with a fresh access token. */
const PROBE = '/api/test-probe/whoami';
const ROUNDS = 6;

let database: TestDatabase;
let nodeA: Stack;
let nodeBDatabase: OpenDatabase;
let nodeB: ServerApp;
let nodeBBase: string;
let frozen: Date | null = null;

function addProbe(app: ServerApp) {
  app.post(PROBE, async (request) => ({ user: request.viewer?.user ?? null }));
}

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  nodeA = await startStack({ serveWebApp: false, config: { databaseUrl: database.url }, extraRoutes: addProbe });
  // The second node: same configuration (provider, client, session secret), its own pool and memory.
  nodeBDatabase = await openDatabase(database.url);
  const context = createAppContext({ config: nodeA.context.config, db: nodeBDatabase.db, dialect: nodeBDatabase.dialect, now: () => frozen ?? new Date() });
  nodeB = await buildApp(context, { serveWebApp: false, logger: false });
  addProbe(nodeB);
  const port = await freePort();
  await nodeB.listen({ host: '127.0.0.1', port });
  nodeBBase = `http://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  await nodeB?.close();
  await nodeBDatabase?.close();
  await nodeA?.close();
  await database?.drop();
});

describe('refreshing one session on two nodes at once', () => {
  it('keeps the session: the second node uses the tokens the first refreshed', async () => {
    const { jar, userId } = await signInAs(nodeA, 'Prime Minister');
    const cookie = `${nodeA.context.cookie.name}=${sessionCookie(nodeA, jar)}`;
    const first = await storedTokens(nodeA, jar);
    let previousRefresh = first?.refresh_token;
    for (let round = 1; round <= ROUNDS; round += 1) {
      // Both nodes' clocks past the access token's expiry (and the ranks' re-check interval).
      frozen = new Date(Date.now() + round * 20 * 60 * 1000);
      nodeA.setNow(frozen);
      const replies = await Promise.all(
        [nodeA, { baseUrl: nodeBBase }].map((node) =>
          // Node B is reached with node A's origin: both serve one site behind one public address.
          appFetch(node, null, PROBE, { method: 'POST', headers: { cookie, origin: nodeA.baseUrl } }),
        ),
      );
      expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
      for (const reply of replies) expect(reply.body).toMatchObject({ user: { id: userId, rank: 8 } });
      expect(await sessionRow(nodeA, jar)).toBeDefined();
      const now = await storedTokens(nodeA, jar);
      // Refreshed (rotated) once this round, and the stored refresh token is the live one.
      expect(now?.refresh_token).toBeTruthy();
      expect(now?.refresh_token).not.toBe(previousRefresh);
      previousRefresh = now?.refresh_token;
    }
    await expect(refreshTokenGrant(await serverClient(nodeA), previousRefresh ?? '')).resolves.toMatchObject({ token_type: expect.stringMatching(/bearer/i) });
  }, 60_000);
});
