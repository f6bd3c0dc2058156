/**
 * PostgreSQL going away and coming back (always PostgreSQL): the server reaches it through a TCP
 * relay this test can cut, as a restart or a network failure would. While it is gone, requests
 * that need it answer 503 with a clear detail and /readyz says not ready (/healthz stays up); once
 * it is back, the pool reconnects on its own and nothing was corrupted. A petition page a node keeps
 * (its read cache) is answered from its copy for at most 1 s after the database went away.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRESHNESS_MS } from '../../src-server/db/change-notices.ts';
import { DATABASE_UNAVAILABLE } from '../../src-server/db/unavailable.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { insertPetition } from './public-test-data.ts';

/** Relays connections to PostgreSQL until cut; restart() listens again on the same port. */
function createRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server;
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 5432), target.hostname);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  return {
    listen,
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

let database: TestDatabase;
let relay: ReturnType<typeof createRelay>;
let port: number;
let api: TestApi;

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  const url = new URL(database.url);
  relay = createRelay(new URL(database.url));
  port = await relay.listen(0);
  url.host = `127.0.0.1:${port}`;
  api = await startTestApi({ databaseUrl: url.href });
});

afterAll(async () => {
  await api?.close();
  await database?.drop();
});

describe('when PostgreSQL goes away', () => {
  it('answers 503 with a clear detail while it is gone, and recovers on its own', async () => {
    const petition = await insertPetition(api.context.db, { title: 'Keep the lights on during outages' });
    const cookie = await api.signInAs('citizen');
    expect((await api.request({ url: `/api/petitions/${petition.id}` })).statusCode).toBe(200);

    await relay.cut();
    const cutAt = performance.now();
    // The signers are read from the database every time.
    const read = await api.request({ url: `/api/petitions/${petition.id}/signers` });
    expect(read.statusCode).toBe(503);
    expect(read.json()).toMatchObject({ status: 503, detail: DATABASE_UNAVAILABLE });
    expect(read.headers['retry-after']).toBe('2');
    const sign = await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie });
    expect(sign.statusCode).toBe(503);
    expect((await api.request({ url: '/readyz' })).statusCode).toBe(503);
    expect((await api.request({ url: '/healthz' })).statusCode).toBe(200);
    // The petition page may come from the node's copy only while its change notices are known to be
    // recent (docs/operations.md#the-petition-read-cache): within 1 s of the cut it needs the database too.
    for (;;) {
      const page = await api.request({ url: `/api/petitions/${petition.id}` });
      if (page.statusCode === 503) break;
      expect(page.statusCode).toBe(200);
      expect(performance.now() - cutAt).toBeLessThan(FRESHNESS_MS + 200);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    await relay.listen(port);
    expect((await api.request({ url: '/readyz' })).statusCode).toBe(200);
    const signed = await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie });
    expect(signed.statusCode).toBe(200);
    const row = await api.context.db.selectFrom('petitions').select('signature_count').where('id', '=', petition.id).executeTakeFirstOrThrow();
    const rows = await api.context.db.selectFrom('signatures').select('user_id').where('petition_id', '=', petition.id).execute();
    expect(row.signature_count).toBe(rows.length);
  });
});
