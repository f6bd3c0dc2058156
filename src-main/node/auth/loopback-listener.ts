/**
 * RFC 8252 §7.3: the one-shot HTTP listener on the loopback interface that receives the provider's
 * redirect after the user signed in in their own browser. It takes as the answer only a request on
 * its path that carries this sign-in's `state` (other paths get 404, e.g. a favicon; any other
 * request on the path, such as one a web page sends with an <img>, gets a harmless 400 page and is
 * otherwise ignored, so it cannot cancel the sign-in), holds that response open until the console
 * has redeemed the code (so the tab can say whether it worked), and gives up after a timeout.
 * Rules: docs/console-security.md#the-sign-in-listener
 */
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';

export interface LoopbackCallback {
  params: URLSearchParams;
  /** Ends the browser's request with a short page; closes the listener. */
  finish(outcome: { ok: boolean; message: string }): void;
}

export interface LoopbackListener {
  /** Resolves with the first request on the redirect path that carries the expected state; rejects on timeout or close. */
  callback: Promise<LoopbackCallback>;
  /** The `state` of the sign-in this listener waits for; until it is set, every request is a stray. */
  expectState(state: string): void;
  close(): void;
}

export interface LoopbackListenerOptions {
  /** Told about each request that was not the answer (for the host's log). */
  onIgnored?: (reason: string) => void;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'",
  'cache-control': 'no-store',
};

function page(heading: string, message: string): string {
  const escaped = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Petitions console</title></head><body><h1>${heading}</h1><p>${escaped}</p></body></html>`;
}

/** Exactly one `state` parameter, equal to the expected one (compared in constant time). */
function carriesState(params: URLSearchParams, expected: Buffer | null): boolean {
  const given = params.getAll('state');
  if (expected === null || given.length !== 1) return false;
  const actual = Buffer.from(given[0]!);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const STRAY_PAGE = page(
  'Not the console’s sign-in',
  'This address only takes the answer to the sign-in the Petitions console started, and this was not it. Nothing was changed.',
);

export async function startLoopbackListener(redirectUri: string, timeoutMs: number, options: LoopbackListenerOptions = {}): Promise<LoopbackListener> {
  const target = new URL(redirectUri);
  if (target.protocol !== 'http:' || !LOOPBACK_HOSTS.has(target.hostname) || !target.port) {
    throw new Error(`The sign-in redirect must be a loopback address with a port, not ${redirectUri}`);
  }
  const host = target.hostname === 'localhost' ? '127.0.0.1' : target.hostname.replace(/^\[|\]$/g, '');
  let expectedState: Buffer | null = null;
  let settle: { resolve: (value: LoopbackCallback) => void; reject: (error: Error) => void } | null = null;
  const callback = new Promise<LoopbackCallback>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody may be awaiting yet when the timer fires; avoid an unhandled rejection.
  callback.catch(() => undefined);

  const server = http.createServer((request, response) => {
    let url: URL;
    try {
      url = new URL(request.url ?? '/', `http://${target.host}`);
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('Bad request');
      return;
    }
    if (request.method !== 'GET' || url.pathname !== target.pathname || !settle) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    if (!carriesState(url.searchParams, expectedState)) {
      // Someone else's request (a page can make the browser send one): answer it and keep waiting.
      response.writeHead(400, PAGE_HEADERS).end(STRAY_PAGE);
      options.onIgnored?.(url.searchParams.has('state') ? 'its state was not this sign-in\'s' : 'it carried no state');
      return;
    }
    const current = settle;
    settle = null;
    clearTimeout(timer);
    current.resolve({
      params: url.searchParams,
      finish(outcome) {
        response.writeHead(outcome.ok ? 200 : 400, { ...PAGE_HEADERS, connection: 'close' }).end(page(outcome.ok ? 'Signed in' : 'Sign-in failed', outcome.message));
        server.close();
        server.closeAllConnections();
      },
    });
  });
  const close = () => {
    clearTimeout(timer);
    settle?.reject(new Error('Sign-in was cancelled.'));
    settle = null;
    server.close();
    server.closeAllConnections();
  };
  const timer = setTimeout(() => {
    settle?.reject(new Error('Sign-in timed out: the browser did not come back to the console.'));
    settle = null;
    server.close();
    server.closeAllConnections();
  }, timeoutMs);
  timer.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`Port ${target.port} is in use: another sign-in may be open (close it, or set CONSOLE_REDIRECT_URI).`)
          : error,
      );
    });
    server.listen(Number(target.port), host, () => resolve());
  });
  return {
    callback,
    expectState(state) {
      expectedState = Buffer.from(state);
    },
    close,
  };
}
