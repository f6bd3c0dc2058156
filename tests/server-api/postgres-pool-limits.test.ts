/**
 * A flood of slow searches on three PostgreSQL nodes (server processes, pool of 4 each): searches
 * hold at most half of each pool, a search that cannot start within DATABASE_POOL_WAIT_MS answers
 * 503 with Retry-After and the "busy" detail within that bound, and meanwhile ordinary reads and
 * /readyz (on a connection of its own) stay fast on every node (docs/limits.md#database-connections).
 * Always PostgreSQL. The search rate limit is switched off here: this is about the pool, not about
 * one client's share (client-limits.test.ts covers that).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenDatabase } from '../../src-server/db/database.ts';
import { DATABASE_BUSY } from '../../src-server/db/unavailable.ts';
import { startServerNode, type ServerNode } from '../support/server-node.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';

const PETITIONS = 30_000;
const SEARCHES = 300;
/** Short enough that 100 searches per node exceed it many times over, long enough that an ordinary read on a starved CPU does not. */
const POOL_WAIT_MS = 1_000;

let database: TestDatabase;
let setup: OpenDatabase;
const nodes: ServerNode[] = [];
let someId = 0;

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  // The seeding is one long statement: on a loaded machine it can outlast the servers' 10 s statement timeout.
  setup = await openDatabase(database.url, { statementTimeoutMs: 0 });
  // Every petition matches the search word, so deep pages of it are slow to compute.
  await sql`
    INSERT INTO petitions (title, description, creator_name, creator_id, tags, category, term_id, status, closure_reason,
      closed_at, signature_count, government_response, government_response_meta, debate_info, debate_info_meta, version, created_at, updated_at)
    SELECT 'Petition about road number ' || n, 'A petition description long enough to pass, about roads and road safety ' || n,
      'Seeder', '1', '["Democracy"]', 'General', NULL, 'open', NULL, NULL, n % 97, NULL, NULL, NULL, NULL, 1,
      to_char(timestamp '2026-01-01' + n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      to_char(timestamp '2026-01-01' + n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
    FROM generate_series(1, ${PETITIONS}) AS n`.execute(setup.db);
  await sql`ANALYZE`.execute(setup.db);
  someId = (await setup.db.selectFrom('petitions').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
  nodes.push(
    ...(await Promise.all(
      [0, 1, 2].map(() =>
        startServerNode({
          DATABASE_URL: database.url,
          DATABASE_POOL_SIZE: '4',
          DATABASE_POOL_WAIT_MS: String(POOL_WAIT_MS),
          RATE_LIMIT_SEARCH: 'off',
          CONNECTIONS_PER_CLIENT: '5000',
        }),
      ),
    )),
  );
}, 180_000);

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  await setup?.close();
  await database?.drop();
});

interface Timed {
  status: number;
  ms: number;
  retryAfter: string | null;
  detail?: string;
}

async function timed(url: string): Promise<Timed> {
  const started = performance.now();
  try {
    const response = await fetch(url);
    const text = await response.text();
    const detail = response.status === 503 ? (JSON.parse(text) as { detail: string }).detail : undefined;
    return { status: response.status, ms: performance.now() - started, retryAfter: response.headers.get('retry-after'), detail };
  } catch {
    return { status: 0, ms: performance.now() - started, retryAfter: null };
  }
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

describe('a flood of slow searches on three PostgreSQL nodes', () => {
  it('answers 503 with Retry-After within the wait bound, while ordinary reads and /readyz stay fast', async () => {
    // Each search a different deep page, so no two share a computation or a cached page.
    const searches = Array.from({ length: SEARCHES }, (_, i) =>
      timed(`${nodes[i % 3]!.base}/api/petitions?search=road&sort=newest&pageSize=100&page=${50 + i}`),
    );
    const reads: Timed[] = [];
    const probes: Timed[] = [];
    let flooding = true;
    const done = Promise.all(searches).finally(() => (flooding = false));
    const watchers = nodes.map(async (node) => {
      while (flooding) {
        reads.push(await timed(`${node.base}/api/petitions/${someId}`));
        probes.push(await timed(`${node.base}/readyz`));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    });
    const answers = await done;
    await Promise.all(watchers);

    const busy = answers.filter((a) => a.status === 503);
    const summary = {
      ok: answers.filter((a) => a.status === 200).length,
      busy: busy.length,
      busyP50Ms: Math.round(percentile(busy.map((a) => a.ms), 0.5)),
      busyMaxMs: Math.round(Math.max(0, ...busy.map((a) => a.ms))),
      readP50: Math.round(percentile(reads.map((r) => r.ms), 0.5)),
      readMax: Math.round(Math.max(...reads.map((r) => r.ms))),
      readyzMax: Math.round(Math.max(...probes.map((r) => r.ms))),
      reads: reads.length,
      readStatuses: [...new Set(reads.map((r) => r.status))],
      readyzStatuses: [...new Set(probes.map((r) => r.status))],
    };
    console.log('slow-search flood on 3 nodes:', summary);

    expect(answers.filter((a) => a.status !== 200 && a.status !== 503)).toEqual([]);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(answer.retryAfter).toBe('2');
      expect(answer.detail).toBe(DATABASE_BUSY);
    }
    // Refused within the wait bound: half of the refusals within 5 s of it (2.0 s in all on a quiet
    // machine; a pool without the bound refuses nothing, one with a longer bound refuses later). The
    // slowest is what a shared 2-core machine running four processes beside other test files adds to a
    // reply (seen: 7.3 s at a load average of 21, 8.3 and 13.2 s at 6-7 on a slow machine), so its margin
    // only says "not queued".
    expect(summary.busyP50Ms).toBeLessThan(POOL_WAIT_MS + 5_000);
    expect(summary.busyMaxMs).toBeLessThan(POOL_WAIT_MS + 19_000);
    expect(reads.length).toBeGreaterThanOrEqual(nodes.length);
    expect(summary.readStatuses).toEqual([200]);
    expect(summary.readyzStatuses).toEqual([200]);
    // Fast means not queued behind the searches: on the code before, reads waited up to 9.8 s and /readyz
    // 13 s in the pool's queue. Here nothing waits for the pool; what remains is CPU the three nodes, the
    // flood and other sessions share on two cores (seen: 0.5 s on a quiet machine, 3.2 s on a busy one,
    // 5.5 s at a load average of 21, 7.5 and 12.3 s at 6-7 on a slow machine). Queued reads would be slow at the
    // median as well; these took 14 ms on a quiet machine and 0.2 s on the slow one.
    expect(summary.readP50).toBeLessThan(1_000);
    expect(summary.readMax).toBeLessThan(20_000);
    expect(summary.readyzMax).toBeLessThan(8_000);
  }, 120_000);
});
