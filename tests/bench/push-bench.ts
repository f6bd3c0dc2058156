/**
 * `npm run bench:push`: web push at the size of a popular petition. 10,000 signers each have a device
 * registered at the local push service (tests/support/local-push-service.ts, which decrypts and
 * checks every message); a minister answers the petition through the API of a real server process
 * (src-server/main.ts, background jobs on), and the server's push queue fans the event out and sends
 * every message. Meanwhile a client on a thread of its own (push-bench-probe.ts) keeps making ordinary
 * API calls (petition list, petition page, unread count). Prints:
 *   - the time from the minister's answer to the last message accepted (target < 60 s here),
 *   - the p50/p99 of the ordinary calls during delivery (target p99 < 50 ms), and of the same calls before it,
 *   - how long the minister's call itself took (the fan-out is never on its path),
 *   - messages refused by the push service's checks and messages sent twice (both should be 0).
 * Prints figures; asserts nothing.
 *
 * Knobs (environment): PUSH_BENCH_DEVICES (default 10000), PUSH_BENCH_DATABASE_URL (a postgres:// URL
 * to run on PostgreSQL; default a SQLite file), PUSH_BENCH_CALL_MS (pause between ordinary calls, default 40: one client at that pace stays under the per-client limit on petition lists, 120 in 10 s, docs/limits.md).
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import os from 'node:os';
import path from 'node:path';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { cookieSettings } from '../../src-server/http/viewer.ts';
import { createSessionService } from '../../src-server/sessions/session-service.ts';
import { createUserRepository } from '../../src-server/users/user-repository.ts';
import { seedPetition, seedTerm, SYNTHETIC_USER_BASE } from '../support/fixtures.ts';
import { startLocalPushService } from '../support/local-push-service.ts';
import { pushEnvironment, seedPushDevices, vapidKeys } from '../support/push-fixtures.ts';
import { startServerNode } from '../support/server-node.ts';

const DEVICES = Number(process.env.PUSH_BENCH_DEVICES ?? 10_000);
const CALL_PAUSE_MS = Number(process.env.PUSH_BENCH_CALL_MS ?? 40);
const MINISTER_ID = '880000006';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-push-bench-'));
  const databaseUrl = process.env.PUSH_BENCH_DATABASE_URL ?? `sqlite:${path.join(dir, 'push-bench.db')}`;
  const service = await startLocalPushService();
  const keys = vapidKeys();

  console.log(`push bench: seeding ${DEVICES.toLocaleString('en-GB')} signers with a device each (${databaseUrl.split(':')[0]})`);
  const setup = await openDatabase(databaseUrl);
  const cookieName = cookieSettings(undefined).name;
  let petitionId: number;
  let ministerCookie: string;
  let readerCookie: string;
  try {
    await seedTerm(setup.db);
    petitionId = (await seedPetition(setup.db, { title: 'Keep the night buses running', signatures: DEVICES })).id;
    await seedPetition(setup.db, { title: 'Another petition for the list', signatures: 50 });
    const signers = Array.from({ length: DEVICES }, (_, index) => String(SYNTHETIC_USER_BASE + index + 1));
    await seedPushDevices(setup.db, service, keys, signers);
    const users = createUserRepository(setup.db);
    const sessions = createSessionService(setup.db, setup.dialect);
    await users.upsert({ id: MINISTER_ID, username: 'benchminister', displayName: 'Bench Minister', avatarUrl: null, citizenRank: 1, governmentRank: 6 });
    ministerCookie = `${cookieName}=${(await sessions.create(MINISTER_ID, 'web')).token}`;
    readerCookie = `${cookieName}=${(await sessions.create(signers[0]!, 'web')).token}`;
  } finally {
    await setup.close();
  }

  const node = await startServerNode({ ...pushEnvironment(keys, service), DATABASE_URL: databaseUrl, DATA_DIR: dir });
  const probe = new Worker(new URL('./push-bench-probe.ts', import.meta.url), {
    workerData: {
      base: node.base,
      cookie: readerCookie,
      paths: [`/api/petitions?page=1`, `/api/petitions/${petitionId}`, '/api/me/notifications/unread-count'],
      pauseMs: CALL_PAUSE_MS,
    },
  });
  const probed = new Promise<{ latencies: Record<string, number[]>; failures: Record<number, number> }>((resolve) => probe.once('message', resolve));

  try {
    await sleep(3_000);
    probe.postMessage({ phase: 'during' });
    const answered = performance.now();
    const response = await fetch(`${node.base}/api/petitions/${petitionId}/government-response`, {
      method: 'POST',
      headers: { cookie: ministerCookie, 'content-type': 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE },
      body: JSON.stringify({ response_text: 'The Government will keep the night buses running.', added_by_role: 'Home Secretary' }),
    });
    const staffCallMs = performance.now() - answered;
    if (!response.ok) throw new Error(`the minister's answer failed: ${response.status} ${await response.text()}`);
    await service.waitForAccepted(DEVICES, 300_000);
    const deliveredMs = performance.now() - answered;
    probe.postMessage({ phase: 'after', stop: true });
    const { latencies, failures } = await probed;
    const before = latencies.before ?? [];
    const during = latencies.during ?? [];

    const held = service.accepted().length;
    console.log('');
    console.log(`devices                          ${DEVICES.toLocaleString('en-GB')}`);
    console.log(`answer → last message accepted   ${(deliveredMs / 1000).toFixed(1)} s  (${Math.round(DEVICES / (deliveredMs / 1000)).toLocaleString('en-GB')} messages/s; target < 60 s)`);
    console.log(`the minister's call itself       ${ms(staffCallMs)}`);
    console.log(`ordinary API calls, before       p50 ${ms(percentile(before, 50))}  p99 ${ms(percentile(before, 99))}  (${before.length} calls)`);
    console.log(`ordinary API calls, during       p50 ${ms(percentile(during, 50))}  p99 ${ms(percentile(during, 99))}  (${during.length} calls; target p99 < 50 ms)`);
    console.log(`failed ordinary calls            ${Object.entries(failures).map(([status, n]) => `${n} × ${status}`).join(', ') || 'none'}`);
    console.log(`refused by the push service      ${service.rejected().length}`);
    console.log(`sent more than once              ${held - DEVICES}`);
  } finally {
    probe.postMessage({ stop: true });
    await probe.terminate();
    await node.stop();
    await service.close();
    if (!process.env.PUSH_BENCH_DATABASE_URL) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
