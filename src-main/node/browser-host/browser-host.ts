/**
 * The console renderer in any browser (`npm run console:browser`): serves the console build from
 * the loopback interface and carries the preload's API over a local connection that only the page
 * it served can use.
 *
 * - Loopback only, and the Host header must name this very listener (a DNS-rebinding page has
 *   another host name).
 * - A random token per run, placed in the served HTML (a <meta>, no inline script: the CSP stays
 *   strict). Every bridge call must carry it; other sites cannot read our HTML, so cannot learn it.
 * - Calls must come from our own origin (Origin / Sec-Fetch-Site) as JSON, which a cross-site form
 *   cannot send without a CORS preflight we never grant.
 * - Then the same dispatcher as Electron's IPC: schema in, handler, schema out.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BRIDGE_EVENTS_PATH,
  BRIDGE_INVOKE_PATH,
  BRIDGE_SCRIPT_PATH,
  BRIDGE_TOKEN_HEADER,
  BRIDGE_TOKEN_META,
} from '../../../src-shared/console/bridge-protocol.ts';
import type { IpcHandlers } from '../../../src-shared/console/ipc-contract.ts';
import { dispatch } from '../ipc/dispatch.ts';
import { consoleSecurityHeaders, resolveAppPath } from '../security/app-protocol.ts';
import type { EventHub } from './event-hub.ts';

/** Bulk actions may carry long texts (500 × 20,000 characters of response). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface BrowserHostOptions {
  /** out/renderer */
  rendererDir: string;
  /** out/preload/browser-bridge.cjs */
  bridgeScript: string;
  handlers: IpcHandlers;
  hub: EventHub;
  csp: string;
  port: number;
  /** Fixed for tests; random by default. */
  token?: string;
  onError?: (channel: string, error: unknown) => void;
}

export interface BrowserHost {
  url: string;
  token: string;
  close(): Promise<void>;
}

function tokenMatches(expected: Buffer, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

async function readBody(request: http.IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const expectedToken = Buffer.from(token);
  const securityHeaders = consoleSecurityHeaders(options.csp);
  let origin = '';
  let allowedHosts = new Set<string>();

  const indexHtml = () =>
    fs
      .readFileSync(`${options.rendererDir}/index.html`, 'utf8')
      .replace('<head>', `<head>\n    <meta name="${BRIDGE_TOKEN_META}" content="${token}" />\n    <script src="${BRIDGE_SCRIPT_PATH}"></script>`);

  /** The Host header was checked against our own addresses first. */
  const pageOrigin = (request: http.IncomingMessage) => `http://${request.headers.host}`;

  /** Same-origin checks a browser gives us for free; absent headers (old browsers, curl) fall back to the token alone. */
  function sameOrigin(request: http.IncomingMessage): boolean {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return false;
    const requestOrigin = request.headers.origin;
    return requestOrigin === undefined || requestOrigin === pageOrigin(request);
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    if (!allowedHosts.has(request.headers.host ?? '')) {
      response.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' }).end('This console only answers on its loopback address.');
      return;
    }
    const url = new URL(request.url ?? '/', origin);

    if (url.pathname === BRIDGE_INVOKE_PATH) {
      if (request.method !== 'POST') return sendJson(response, 405, { ok: false, code: 'invalid_request', message: 'POST only' });
      if (!tokenMatches(expectedToken, request.headers[BRIDGE_TOKEN_HEADER] as string | undefined) || !sameOrigin(request)) {
        return sendJson(response, 403, { ok: false, code: 'forbidden_sender', message: 'Only the console page may call the console.' });
      }
      if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
        return sendJson(response, 415, { ok: false, code: 'invalid_request', message: 'JSON only' });
      }
      const body = await readBody(request);
      if (body === null) return sendJson(response, 413, { ok: false, code: 'invalid_request', message: 'Too large' });
      let message: { channel?: unknown; request?: unknown };
      try {
        message = JSON.parse(body) as typeof message;
      } catch {
        return sendJson(response, 400, { ok: false, code: 'invalid_request', message: 'Malformed JSON' });
      }
      // The token proved this is our page; the dispatcher checks the origin once more, like IPC.
      const from = pageOrigin(request);
      const result = await dispatch(options.handlers, { url: from, isMainFrame: true }, [from], message?.channel, message?.request, options.onError);
      return sendJson(response, 200, result);
    }

    if (url.pathname === BRIDGE_EVENTS_PATH) {
      if (!tokenMatches(expectedToken, url.searchParams.get('token')) || !sameOrigin(request)) {
        response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end('Forbidden');
        return;
      }
      options.hub.attach(response);
      return;
    }

    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }

    if (url.pathname === BRIDGE_SCRIPT_PATH) {
      response.writeHead(200, { ...securityHeaders, 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
      response.end(fs.readFileSync(options.bridgeScript));
      return;
    }

    const resolved = resolveAppPath(options.rendererDir, url.pathname);
    if (resolved.kind === 'refused') {
      response.writeHead(resolved.status, { 'content-type': 'text/plain; charset=utf-8' }).end(resolved.reason);
      return;
    }
    if (resolved.file.endsWith('index.html')) {
      response.writeHead(200, { ...securityHeaders, 'content-type': resolved.contentType, 'cache-control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : indexHtml());
      return;
    }
    response.writeHead(200, { ...securityHeaders, 'content-type': resolved.contentType, 'cache-control': 'no-cache' });
    if (request.method === 'HEAD') response.end();
    else fs.createReadStream(resolved.file).pipe(response);
  }

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.onError?.('http', error);
      if (!response.headersSent) response.writeHead(500).end();
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);

  return {
    url: `${origin}/`,
    token,
    async close() {
      options.hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
