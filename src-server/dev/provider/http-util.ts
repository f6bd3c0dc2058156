import type { IncomingMessage, ServerResponse } from 'node:http';

export function escapeHtml(value: unknown): string {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

// The sign-in page is a dev tool, but it still gets a strict CSP: everything it needs is inline
// in this response, so anything else loading would be a bug (or an injection) worth noticing.
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self' http: https:; frame-ancestors 'none'; base-uri 'none'";

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(html);
}

export class BodyTooLargeError extends Error {}

/** Reads an application/x-www-form-urlencoded body; forms here are tiny, so cap the size. */
export async function readFormBody(req: IncomingMessage, limitBytes = 16 * 1024): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const piece of req) {
    const buf = piece as Buffer;
    size += buf.length;
    if (size > limitBytes) throw new BodyTooLargeError('request body too large');
    chunks.push(buf);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Shared look for the provider's own pages; inline CSS only (no CDN, works offline). */
export function pageLayout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
  body { max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
  .banner { border-left: 0.4rem solid #b58100; padding: 0.5rem 1rem; background: rgba(181, 129, 0, 0.12); }
  ul.personas { list-style: none; padding: 0; }
  ul.personas li { margin: 0 0 0.75rem; }
  button { font: inherit; padding: 0.5rem 1rem; min-width: 16rem; text-align: left; cursor: pointer; }
  button:focus-visible, input:focus-visible { outline: 3px solid #1d70b8; outline-offset: 2px; }
  .hint { display: block; font-size: 0.9em; opacity: 0.8; }
  fieldset { margin-top: 2rem; }
  label { display: block; margin-top: 0.75rem; font-weight: 600; }
  input { font: inherit; padding: 0.25rem; }
  .error-summary { border: 3px solid #d4351c; padding: 0.5rem 1rem; }
  .field-error { color: #d4351c; font-weight: 600; display: block; }
  .checkbox { margin-top: 0.75rem; }
  .checkbox label { display: inline; margin-left: 0.25rem; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}
