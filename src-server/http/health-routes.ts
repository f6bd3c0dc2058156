/**
 * Probes for a load balancer or orchestrator:
 * - `/healthz`: the process is alive and serving (no database work, so a slow database never gets
 *   a healthy node restarted);
 * - `/readyz`: this node should get traffic: the database answers, every migration this server
 *   knows is applied, and the node is not shutting down (it answers 503 while it drains).
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { DATABASE_UNAVAILABLE } from '../db/unavailable.ts';
import { HttpError } from './problem.ts';

export function registerHealthRoutes(app: FastifyInstance, context: Pick<AppContext, 'readiness' | 'dialect'>, isClosing: () => boolean): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (isClosing()) throw new HttpError(503, 'This server is shutting down');
    let pending: string[];
    try {
      // Its own connection on PostgreSQL, never queued behind ordinary requests (readiness-probe.ts).
      pending = await context.readiness.pendingMigrations();
    } catch {
      throw new HttpError(503, DATABASE_UNAVAILABLE);
    }
    if (pending.length) throw new HttpError(503, `The database schema is behind this server: ${pending.join(', ')} not applied`);
    return { status: 'ready', database: context.dialect };
  });
}
