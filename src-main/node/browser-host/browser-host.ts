/**
 * The console renderer in any browser (`npm run console:browser`): serves the console build from
 * the loopback interface and carries the preload's API over a local connection that only the page
 * it opened can use (docs/console-security.md#the-consolebrowser-bridge).
 *
 * - Loopback only, and the Host header must name this very listener (a DNS-rebinding page has
 *   another host name).
 * - A random bridge token per run that no plain GET returns: the host opens and prints an address
 *   whose fragment (never sent to a server, never in our HTML) carries a one-time launch code; the
 *   page trades it once for the token and keeps that in its tab's sessionStorage. A spent code is
 *   worth nothing, so the address a browser was started with (visible in the process list) is
 *   useless to anyone else once the page has loaded.
 * - Every bridge request (launch, calls, the event stream) must carry our own Origin, which a
 *   browser sets and no other site can forge, and, when the browser sends it, Sec-Fetch-Site
 *   same-origin; calls and the stream also carry the token, which a local program does not have.
 *   Bodies are JSON, which a cross-site form cannot send without a CORS preflight we never grant.
 * - Then the same dispatcher as Electron's IPC: schema in, handler, schema out.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import {
  BRIDGE_EVENTS_PATH,
  BRIDGE_INVOKE_PATH,
  BRIDGE_LAUNCH_PARAM,
  BRIDGE_LAUNCH_PATH,
  BRIDGE_REFUSED_MESSAGE,
  BRIDGE_SCRIPT_PATH,
  BRIDGE_SECRET_PATTERN,
  BRIDGE_TOKEN_HEADER,
} from '../../../src-shared/console/bridge-protocol.ts';
import type { IpcHandlers } from '../../../src-shared/console/ipc-contract.ts';
import { dispatch } from '../ipc/dispatch.ts';
import { consoleSecurityHeaders, resolveAppPath } from '../security/app-protocol.ts';
import type { EventHub } from './event-hub.ts';

/** Bulk actions may carry long texts (500 × 20,000 characters of response). */
const MAX_BODY_BYTES = 16 * 1024 * 1024;
const MAX_LAUNCH_BODY_BYTES = 1024;

const BridgeSecret = z.string().regex(BRIDGE_SECRET_PATTERN);
const BridgeLaunchRequest = z.strictObject({ launch: BridgeSecret });
const BridgeLaunchAnswer = z.strictObject({ token: BridgeSecret });

export interface BrowserHostOptions {
  /** out/renderer */
  rendererDir: string;
  /** out/preload/browser-bridge.cjs */
  bridgeScript: string;
  handlers: IpcHandlers;
  hub: EventHub;
  csp: string;
  port: number;
  /** A page traded a launch code for the token (the host may print a fresh address for another tab). */
  onLaunch?: () => void;
  onError?: (channel: string, error: unknown) => void;
}

export interface BrowserHost {
  /** The host's origin with a trailing slash: a plain GET of it gets the page, never the bridge. */
  url: string;
  /**
   * A fresh one-time address to open the console in a browser tab (`path` on our origin, default
   * `/`, with a launch code in the fragment); the tab that opens it first gets the bridge.
   */
  openAddress(path?: string): string;
  /** The run's bridge token (tests act as a page that has it). */
  token: string;
  close(): Promise<void>;
}

function secretMatches(expected: Buffer, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

const refused = (response: http.ServerResponse) => sendJson(response, 403, { ok: false, code: 'forbidden_sender', message: BRIDGE_REFUSED_MESSAGE });

async function readBody(request: http.IncomingMessage, limit: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads a JSON body or answers the request itself (415, 413, 400) and gives undefined. */
async function readJson(request: http.IncomingMessage, response: http.ServerResponse, limit: number): Promise<unknown> {
  if (!String(request.headers['content-type'] ?? '').startsWith('application/json')) {
    sendJson(response, 415, { ok: false, code: 'invalid_request', message: 'JSON only' });
    return undefined;
  }
  const body = await readBody(request, limit);
  if (body === null) {
    sendJson(response, 413, { ok: false, code: 'invalid_request', message: 'Too large' });
    return undefined;
  }
  try {
    return JSON.parse(body) as unknown;
  } catch {
    sendJson(response, 400, { ok: false, code: 'invalid_request', message: 'Malformed JSON' });
    return undefined;
  }
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = randomBytes(32).toString('base64url');
  const expectedToken = Buffer.from(token);
  /** Launch codes handed out and not yet traded for the token. */
  const unspentLaunchCodes = new Set<string>();
  const securityHeaders = consoleSecurityHeaders(options.csp);
  let origin = '';
  let allowedHosts = new Set<string>();

  // The HTML carries no secret: only the bridge script, which finds the launch code in the fragment.
  const indexHtml = () =>
    fs.readFileSync(`${options.rendererDir}/index.html`, 'utf8').replace('<head>', `<head>\n    <script src="${BRIDGE_SCRIPT_PATH}"></script>`);

  /** The Host header was checked against our own addresses first. */
  const pageOrigin = (request: http.IncomingMessage) => `http://${request.headers.host}`;

  /**
   * Sent by our page: a browser always sets Origin on a POST and no page of another origin can set
   * ours. Sec-Fetch-Site, where a browser sends it, must agree. A program can claim both, but has no token.
   */
  function fromOwnPage(request: http.IncomingMessage): boolean {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return false;
    return request.headers.origin === pageOrigin(request);
  }

  const carriesToken = (request: http.IncomingMessage) => secretMatches(expectedToken, request.headers[BRIDGE_TOKEN_HEADER] as string | undefined);

  /** One launch code, spent by the first page that presents it. */
  function spendLaunchCode(code: string): boolean {
    for (const unspent of unspentLaunchCodes) {
      if (secretMatches(Buffer.from(unspent), code)) {
        unspentLaunchCodes.delete(unspent);
        return true;
      }
    }
    return false;
  }

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    if (!allowedHosts.has(request.headers.host ?? '')) {
      response.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' }).end('This console only answers on its loopback address.');
      return;
    }
    const url = new URL(request.url ?? '/', origin);
    const bridgePath = [BRIDGE_LAUNCH_PATH, BRIDGE_INVOKE_PATH, BRIDGE_EVENTS_PATH].includes(url.pathname);
    if (bridgePath && request.method !== 'POST') return sendJson(response, 405, { ok: false, code: 'invalid_request', message: 'POST only' });

    if (url.pathname === BRIDGE_LAUNCH_PATH) {
      if (!fromOwnPage(request)) return refused(response);
      const body = await readJson(request, response, MAX_LAUNCH_BODY_BYTES);
      if (body === undefined) return;
      const launch = BridgeLaunchRequest.safeParse(body);
      if (!launch.success || !spendLaunchCode(launch.data.launch)) return refused(response);
      options.onLaunch?.();
      return sendJson(response, 200, BridgeLaunchAnswer.parse({ token }));
    }

    if (url.pathname === BRIDGE_INVOKE_PATH) {
      if (!fromOwnPage(request) || !carriesToken(request)) return refused(response);
      const message = (await readJson(request, response, MAX_BODY_BYTES)) as { channel?: unknown; request?: unknown } | undefined;
      if (message === undefined) return;
      // Our page, proven twice; the dispatcher checks the origin once more, like IPC.
      const from = pageOrigin(request);
      const result = await dispatch(options.handlers, { url: from, isMainFrame: true }, [from], message?.channel, message?.request, options.onError);
      return sendJson(response, 200, result);
    }

    if (url.pathname === BRIDGE_EVENTS_PATH) {
      if (!fromOwnPage(request) || !carriesToken(request)) return refused(response);
      request.resume();
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
    openAddress(path = '/') {
      if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`openAddress takes a path on the console's origin, not ${path}`);
      const code = randomBytes(32).toString('base64url');
      unspentLaunchCodes.add(code);
      const address = new URL(path, origin);
      address.hash = `${BRIDGE_LAUNCH_PARAM}=${code}`;
      return address.href;
    },
    token,
    async close() {
      options.hub.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
