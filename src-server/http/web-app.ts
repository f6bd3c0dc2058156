/** Serves the built web app (dist-web) from the API's own origin, with a fallback for client-side routes. */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { problemBody } from './problem.ts';

/** The web app loads nothing from elsewhere, so the policy can be strict: no inline script, no third parties. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export const WEB_ROOT = path.resolve(import.meta.dirname, '../../dist-web');

export async function registerWebApp(app: FastifyInstance, root: string = WEB_ROOT): Promise<void> {
  const indexFile = path.join(root, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ root }, 'web app not built: run `npm run build:web`');
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    setHeaders(res, filePath) {
      // Hashed asset names never change content, so they may be cached for a year.
      if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      else res.header('cache-control', 'no-cache');
    },
  });
  const indexHtml = fs.readFileSync(indexFile, 'utf8');
  // A catch-all GET route rather than a second not-found handler: registerProblemHandlers already
  // owns the root not-found handler and Fastify refuses to set one twice.
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (!pathname.startsWith('/api/') && !path.extname(pathname)) {
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', CONTENT_SECURITY_POLICY)
        .send(indexHtml);
    }
    return reply.code(404).type('application/problem+json').send(problemBody(404, `No route for ${request.method} ${pathname}`));
  });
}
