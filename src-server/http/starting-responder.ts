/**
 * What a node answers on its port while it waits for the database at start-up
 * (docs/operations.md#starting-before-the-database): `/healthz` 200 (the process is alive, so an
 * orchestrator does not restart it), `/readyz` 503 with the reason (no traffic yet), anything else
 * 503 with Retry-After, as a running node answers while the database is away (problem.ts). The
 * full application takes the port over once the database answers.
 */
import http from 'node:http';
import { DATABASE_UNAVAILABLE } from '../db/unavailable.ts';
import { problemBody } from './problem.ts';

export interface StartingResponder {
  /** What /readyz says, until the application takes over. */
  setReason(reason: string): void;
  /** Stops listening and drops open connections, so the application can bind the port. */
  close(): Promise<void>;
}

export async function startStartingResponder(options: { host: string; port: number; reason: string }): Promise<StartingResponder> {
  let reason = options.reason;
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const send = (status: number, body: unknown, type = 'application/json') => {
      response.writeHead(status, {
        'content-type': type,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        // Keep-alive connections would hold the port's listener open past close().
        connection: 'close',
        ...(status === 503 ? { 'retry-after': '2' } : {}),
      });
      response.end(JSON.stringify(body));
    };
    if (path === '/healthz') return send(200, { status: 'ok' });
    if (path === '/readyz') return send(503, problemBody(503, reason), 'application/problem+json');
    send(503, problemBody(503, DATABASE_UNAVAILABLE), 'application/problem+json');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: options.host, port: options.port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    setReason(next) {
      reason = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
