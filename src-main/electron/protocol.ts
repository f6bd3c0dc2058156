/** Serves the renderer build on app://console with the console's CSP (never file://). */
import fs from 'node:fs/promises';
import { protocol } from 'electron';
import { APP_SCHEME, consoleSecurityHeaders, resolveAppUrl } from '../node/security/app-protocol.ts';

/** Must run before `app.whenReady()`: a standard, secure scheme gets an origin, fetch and storage. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true } },
  ]);
}

export function serveAppScheme(rendererDir: string, csp: string): void {
  const headers = consoleSecurityHeaders(csp);
  protocol.handle(APP_SCHEME, async (request) => {
    const resolved = resolveAppUrl(rendererDir, request.url);
    if (resolved.kind === 'refused') return new Response(resolved.reason, { status: resolved.status });
    const body = await fs.readFile(resolved.file);
    return new Response(body, { status: 200, headers: { ...headers, 'content-type': resolved.contentType } });
  });
}
