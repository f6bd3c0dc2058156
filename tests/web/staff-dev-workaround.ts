// TEMPORARY (delete before hand-off): serves dist-web while startStack()'s web app cannot start
// (problem.ts and web-app.ts both call setNotFoundHandler).
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ensureWebBuild, startStack } from '../support/stack.ts';

export async function startStackWithWeb() {
  try {
    return await startStack();
  } catch (error) {
    if (!String(error).includes('Not found handler already set')) throw error;
  }
  await ensureWebBuild();
  const root = path.resolve(import.meta.dirname, '../../dist-web');
  const index = fs.readFileSync(path.join(root, 'index.html'), 'utf8');
  return startStack({
    serveWebApp: false,
    extraRoutes: (app) => {
      void app.register(fastifyStatic, { root, wildcard: false, index: false });
      app.get('/*', (request, reply) => {
        const p = request.url.split('?')[0] ?? '/';
        if (p.startsWith('/api/') || path.extname(p)) return reply.code(404).send({ detail: 'not found' });
        return reply.type('text/html; charset=utf-8').send(index);
      });
    },
  });
}
