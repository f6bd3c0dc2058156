/** /healthz (alive) and /readyz (database reachable, migrations current, not draining), on the engine under test. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api-harness.ts';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});

afterAll(async () => {
  await api?.close();
});

describe('health probes', () => {
  it('answers /healthz without asking the database', async () => {
    const response = await api.request({ url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with the engine once every migration is applied', async () => {
    const response = await api.request({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', database: api.context.dialect });
  });

  it('is not ready while a migration this server knows is missing from the database', async () => {
    const db = api.context.db.withTables<{ kysely_migration: { name: string; timestamp: string } }>();
    const row = await db.selectFrom('kysely_migration').selectAll().where('name', '=', '0006_first_signers_as_shown').executeTakeFirstOrThrow();
    await db.deleteFrom('kysely_migration').where('name', '=', row.name).execute();
    try {
      const response = await api.request({ url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ status: 503, detail: 'The database schema is behind this server: 0006_first_signers_as_shown not applied' });
    } finally {
      await db.insertInto('kysely_migration').values(row).execute();
    }
    expect((await api.request({ url: '/readyz' })).statusCode).toBe(200);
  });
});
