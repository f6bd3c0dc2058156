/**
 * `npm start`'s process stops on SIGTERM without losing a write: every signature the server
 * acknowledged is in the database afterwards, and the stored count equals the signature rows.
 * On the engine under test (a SQLite file, or PostgreSQL with TEST_DATABASE=postgres).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { cookieSettings } from '../../src-server/http/viewer.ts';
import { createSessionService } from '../../src-server/sessions/session-service.ts';
import { createUserRepository } from '../../src-server/users/user-repository.ts';
import { startServerNode } from '../support/server-node.ts';
import { createTestDatabase } from '../support/test-database.ts';
import { insertCurrentTerm, insertPetition } from './public-test-data.ts';

const SIGNERS = 300;

describe('graceful shutdown', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-shutdown-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers or refuses every request, and keeps every acknowledged write after SIGTERM', async () => {
    const database = await createTestDatabase(dir, 'petitions.db');
    const setup = await openDatabase(database.url);
    await insertCurrentTerm(setup.db);
    const petition = await insertPetition(setup.db);
    const users = createUserRepository(setup.db);
    const sessions = createSessionService(setup.db);
    const cookies: { userId: string; cookie: string }[] = [];
    for (let i = 0; i < SIGNERS; i += 1) {
      const userId = String(700_000 + i);
      await users.upsert({ id: userId, username: `u${i}`, displayName: `User ${i}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 });
      const { token } = await sessions.create(userId);
      cookies.push({ userId, cookie: `${cookieSettings(undefined).name}=${token}` });
    }
    await setup.close();

    const server = await startServerNode({ DATABASE_URL: database.url });
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
    const base = server.base;
    // Stops the node should an assertion fail before the SIGTERM below (stop() waits for its exit).
    onTestFinished(() => server.stop());

    let answered = 0;
    const requests = cookies.map(({ userId, cookie }) =>
      fetch(`${base}/api/petitions/${petition.id}/sign`, {
        method: 'POST',
        headers: { cookie, [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' },
        body: '{}',
      }).then(
        (response) => {
          answered += 1;
          if (answered === 20) server.process.kill('SIGTERM');
          return { userId, status: response.status };
        },
        () => ({ userId, status: 0 }),
      ),
    );
    const results = await Promise.all(requests);
    expect(await exited).toBe(0);

    const acknowledged = results.filter((r) => r.status === 200).map((r) => r.userId);
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);
    // Nothing but success, a refusal while closing (503) or a closed connection.
    for (const r of results) expect([0, 200, 503]).toContain(r.status);

    const after = await openDatabase(database.url);
    const rows = await after.db.selectFrom('signatures').select('user_id').where('petition_id', '=', petition.id).execute();
    const stored = await after.db.selectFrom('petitions').select('signature_count').where('id', '=', petition.id).executeTakeFirstOrThrow();
    await after.close();
    await database.drop();
    const signed = new Set(rows.map((r) => r.user_id));
    for (const userId of acknowledged) expect(signed.has(userId)).toBe(true);
    expect(stored.signature_count).toBe(rows.length);
  });
});
