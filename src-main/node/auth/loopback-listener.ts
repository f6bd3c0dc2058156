/**
 * RFC 8252 §7.3: the one-shot HTTP listener on the loopback interface that receives the provider's
 * redirect after the user signed in in their own browser. It answers exactly one request on its
 * path (other paths get 404, e.g. a favicon), holds that response open until the console has
 * redeemed the code (so the tab can say whether it worked), and gives up after a timeout.
 */
import http from 'node:http';

export interface LoopbackCallback {
  params: URLSearchParams;
  /** Ends the browser's request with a short page; closes the listener. */
  finish(outcome: { ok: boolean; message: string }): void;
}

export interface LoopbackListener {
  /** Resolves with the first request on the redirect path; rejects on timeout or close. */
  callback: Promise<LoopbackCallback>;
  close(): void;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function page(outcome: { ok: boolean; message: string }): string {
  const escaped = outcome.message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>Petitions console</title></head><body><h1>${outcome.ok ? 'Signed in' : 'Sign-in failed'}</h1><p>${escaped}</p></body></html>`;
}

export async function startLoopbackListener(redirectUri: string, timeoutMs: number): Promise<LoopbackListener> {
  const target = new URL(redirectUri);
  if (target.protocol !== 'http:' || !LOOPBACK_HOSTS.has(target.hostname) || !target.port) {
    throw new Error(`The sign-in redirect must be a loopback address with a port, not ${redirectUri}`);
  }
  const host = target.hostname === 'localhost' ? '127.0.0.1' : target.hostname.replace(/^\[|\]$/g, '');
  let settle: { resolve: (value: LoopbackCallback) => void; reject: (error: Error) => void } | null = null;
  const callback = new Promise<LoopbackCallback>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // Nobody may be awaiting yet when the timer fires; avoid an unhandled rejection.
  callback.catch(() => undefined);

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', `http://${target.host}`);
    if (request.method !== 'GET' || url.pathname !== target.pathname || !settle) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const current = settle;
    settle = null;
    clearTimeout(timer);
    current.resolve({
      params: url.searchParams,
      finish(outcome) {
        response
          .writeHead(outcome.ok ? 200 : 400, {
            'content-type': 'text/html; charset=utf-8',
            'content-security-policy': "default-src 'none'",
            'cache-control': 'no-store',
            connection: 'close',
          })
          .end(page(outcome));
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
  return { callback, close };
}
