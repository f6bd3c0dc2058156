/**
 * GET /metrics for Prometheus (docs/operations.md#metrics), and what it measures that other modules
 * do not count themselves: request durations (one onResponse hook), queue depths, open live-event
 * streams and the database pool, read when scraped.
 *
 * Who may read it: with METRICS_TOKEN set, callers sending `Authorization: Bearer <token>`. Without
 * a token, in production, not the public port at all: only METRICS_PORT (default 9464) on the
 * loopback interface; in development and tests, anyone on the main port. METRICS_PORT, when set,
 * always serves too (with the token check when there is a token).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Gauge } from 'prom-client';
import type { AppContext } from '../context.ts';
import type { PoolStats } from '../db/dialect.ts';
import { HttpError } from '../http/problem.ts';
import type { SigningBatchStats } from '../petitions/signing-batches.ts';
import { QUEUE_DEPTHS } from './queue-depths.ts';

export const METRICS_PATH = '/metrics';
export const DEFAULT_METRICS_PORT = 9464;

/** The separate metrics listener of an app (tests read its port when METRICS_PORT is 0). */
const metricsServers = new WeakMap<FastifyInstance, http.Server>();
export function metricsServerOf(app: FastifyInstance): http.Server | undefined {
  return metricsServers.get(app);
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  // Equal-length digests, so the comparison takes the same time whatever was sent.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}

function registerGauges(context: AppContext, poolStats: (() => PoolStats) | undefined, onReadError: (queue: string, error: unknown) => void): void {
  const { registry } = context.metrics;
  new Gauge({
    name: 'petitions_queue_depth',
    help: 'Items waiting in each queue or backlog (chat: staff chat messages not yet delivered; response_backlog, debate_backlog: petitions awaiting them)',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      // One after another: a scrape holds at most one database connection.
      for (const { queue, count } of QUEUE_DEPTHS) {
        try {
          this.set({ queue }, await count(context.db, context.dialect));
        } catch (error) {
          // A database that does not answer leaves the series out of this scrape rather than failing it.
          onReadError(queue, error);
        }
      }
    },
  });
  new Gauge({
    name: 'petitions_sse_streams_open',
    help: 'Live-event streams (server-sent events) open on this process',
    registers: [registry],
    collect() {
      this.set(context.live.stats().subscribers);
    },
  });
  new Gauge({
    name: 'petitions_read_cache_reads',
    help: 'Petition page reads since start (PostgreSQL): hit (kept row), miss (read and kept), bypassed (database read while change notices could not be trusted, or no cache)',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      const stats = context.petitionCache.stats();
      for (const outcome of ['hit', 'miss', 'bypassed'] as const) this.set({ outcome }, stats[outcome]);
    },
  });
  new Gauge({
    name: 'petitions_session_cache_reads',
    help: 'Session reads of signed-in requests since start (PostgreSQL): hit (kept session), miss (read and kept), bypassed (database read while change notices could not be trusted); none without the cache',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      const stats = context.sessions.cacheStats();
      if (stats) for (const outcome of ['hit', 'miss', 'bypassed'] as const) this.set({ outcome }, stats[outcome]);
    },
  });
  // Since start, as the caches' reads are: calls per batch and time per batch are ratios of their rates.
  const batches = (name: string, help: string, read: (stats: SigningBatchStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(context.signing.batchStats()));
      },
    });
  batches('petitions_signing_batches', 'Signing transactions (batches) this process wrote since start', (stats) => stats.batches);
  batches('petitions_signing_batch_calls', 'Sign and unsign calls those batches carried since start, refusals included', (stats) => stats.calls);
  batches('petitions_signing_batch_seconds', 'Time those batches took since start: waiting for a database connection (PostgreSQL), their statements and their commit', (stats) => stats.seconds);
  if (!poolStats) return;
  const pool = (name: string, help: string, read: (stats: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(poolStats()));
      },
    });
  pool('petitions_db_pool_in_use', 'Database connections of this process checked out by a query or transaction', (stats) => stats.inUse);
  pool('petitions_db_pool_waiting', 'Callers of this process waiting for a database connection', (stats) => stats.waiting);
  pool('petitions_db_pool_size', 'Database connections this process has open', (stats) => stats.total);
  pool('petitions_db_pool_max', 'The most database connections this process opens (DATABASE_POOL_SIZE)', (stats) => stats.max);
}

export function registerMetrics(app: FastifyInstance, context: AppContext): void {
  const { metrics } = context;
  const { token, port } = context.config.metrics;
  registerGauges(context, context.databasePool, (queue, error) => app.log.warn({ err: error, queue }, 'reading a queue depth for /metrics failed'));

  app.addHook('onResponse', async (request, reply) => {
    metrics.httpDuration.observe(
      { route: request.routeOptions.url ?? 'unmatched', method: request.method, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  const production = context.config.env === 'production';
  if (token || !production) {
    app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
      if (token && !tokenMatches(request.headers.authorization, token)) {
        throw new HttpError(401, 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>', {}, { 'www-authenticate': 'Bearer realm="metrics"' });
      }
      reply.header('cache-control', 'no-store').type(metrics.contentType);
      return metrics.text();
    });
  }

  const separatePort = port ?? (production && !token ? DEFAULT_METRICS_PORT : undefined);
  if (separatePort === undefined) return;
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== METRICS_PATH) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics here\n');
      return;
    }
    if (token && !tokenMatches(request.headers.authorization, token)) {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer realm="metrics"' }).end('Send the metrics token\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' }).end(text),
      (error: unknown) => {
        app.log.error({ err: error }, 'collecting metrics failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Collecting metrics failed\n');
      },
    );
  });
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // Loopback only: a Prometheus on this machine (or a sidecar sharing its network) scrapes it.
      server.listen({ host: '127.0.0.1', port: separatePort }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address();
    app.log.info(`metrics on http://127.0.0.1:${typeof address === 'object' && address ? address.port : separatePort}${METRICS_PATH}`);
  });
  app.addHook('onClose', async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
  });
  metricsServers.set(app, server);
}
