/**
 * Serves the built web app (dist-web) from the API's own origin. Every page path gets the page shell;
 * a path that is no page of the app, or a petition that does not exist, gets it with status 404 so
 * crawlers and link checkers see the truth while the app still shows its not-found screen.
 */
import fs from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { matchAppPath } from '../../src-shared/domain/app-paths.ts';
import { problemBody } from './problem.ts';

/** The web app loads nothing from elsewhere, so the policy can be strict: no inline script, no third parties. */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export const WEB_ROOT = path.resolve(import.meta.dirname, '../../dist-web');

type Encoding = 'br' | 'gzip';
/** Brotli first, then gzip, as @fastify/static itself picks between the built copies of each asset. */
const ENCODINGS: Encoding[] = ['br', 'gzip'];

export interface WebAppOptions {
  /** Whether a petition exists (its page answers 404 otherwise); without it every petition path answers 200. */
  petitionExists?: (id: number) => Promise<boolean>;
}

export async function registerWebApp(app: FastifyInstance, root: string = WEB_ROOT, options: WebAppOptions = {}): Promise<void> {
  const indexFile = path.join(root, 'index.html');
  if (!fs.existsSync(indexFile)) {
    app.log.warn({ root }, 'web app not built: run `npm run build:web`');
    return;
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // The build writes .br and .gz next to each text asset (vite.config.ts); send the best one the
    // browser accepts (Vary: Accept-Encoding). The copies are not routes of their own.
    preCompressed: true,
    globIgnore: ['**/*.br', '**/*.gz'],
    setHeaders(res, filePath) {
      // Hashed asset names never change content, so they may be cached for a year.
      if (filePath.includes(`${path.sep}assets${path.sep}`)) res.header('cache-control', 'public, max-age=31536000, immutable');
      else res.header('cache-control', 'no-cache');
      // /index.html fetched by name (the selected file may be its .br or .gz copy) gets the app's policy too.
      if (/\.html(?:\.br|\.gz)?$/.test(filePath)) res.header('content-security-policy', CONTENT_SECURITY_POLICY);
    },
  });
  const indexHtml = fs.readFileSync(indexFile);
  const indexEncoded: Record<Encoding, Buffer> = { br: brotliCompressSync(indexHtml), gzip: gzipSync(indexHtml, { level: 9 }) };
  // A catch-all GET route rather than a second not-found handler: registerProblemHandlers already
  // owns the root not-found handler and Fastify refuses to set one twice.
  async function pageStatus(pathname: string): Promise<200 | 404> {
    const match = matchAppPath(pathname);
    if (match.kind === 'unknown') return 404;
    if (match.kind === 'petition') {
      if (match.id === null) return 404;
      if (options.petitionExists && !(await options.petitionExists(match.id))) return 404;
    }
    return 200;
  }

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (!pathname.startsWith('/api/') && !path.extname(pathname)) {
      reply.code(await pageStatus(pathname));
      const encoding = negotiate(String(request.headers['accept-encoding'] ?? ''), ENCODINGS);
      reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding')
        .header('content-security-policy', CONTENT_SECURITY_POLICY);
      if (encoding) reply.header('content-encoding', encoding);
      return reply.send(encoding ? indexEncoded[encoding] : indexHtml);
    }
    return reply.code(404).type('application/problem+json').send(problemBody(404, `No route for ${request.method} ${pathname}`));
  });
}
