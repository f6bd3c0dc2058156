/** The web app's page shell is sent in the best encoding the browser accepts, q-values included. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerWebApp } from '../../src-server/http/web-app.ts';

const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
let dir: string;
let app: FastifyInstance;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-web-'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  app = Fastify();
  await registerWebApp(app, dir);
  await app.ready();
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function shell(acceptEncoding?: string) {
  const reply = await app.inject({ url: '/petitions', headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });
  const encoding = reply.headers['content-encoding'];
  const body = encoding === 'br' ? brotliDecompressSync(reply.rawPayload) : encoding === 'gzip' ? gunzipSync(reply.rawPayload) : reply.rawPayload;
  return { reply, encoding, html: body.toString('utf8') };
}

describe('page shell encoding', () => {
  it('prefers brotli, then gzip, and always sends the same page with its policy', async () => {
    for (const [header, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.1, gzip', 'gzip'],
      ['br;q=0, gzip;q=0', undefined],
      ['identity', undefined],
      [undefined, undefined],
    ] as const) {
      const { reply, encoding, html } = await shell(header);
      expect(encoding, String(header)).toBe(expected);
      expect(html).toBe(INDEX);
      expect(reply.headers.vary).toBe('accept-encoding');
      expect(reply.headers['content-security-policy']).toContain("default-src 'self'");
    }
  });
});
