/**
 * What JavaScript a first-time visitor's browser actually downloads for one page: a fresh
 * Playwright context (empty cache), every script response until the network is idle, each body
 * gzipped here at level 9 (the server itself does not compress, so this is the figure a gzip-ing
 * proxy or CDN would send).
 *
 * Each file is also classed as "critical" or "lazy" the way tests/renderer-unit/bundle-budget.test.ts
 * counts its budget: critical = the entry script of index.html, the route's page chunk and
 * everything they import statically; lazy = anything else the page fetched on its own (the chart,
 * for instance). The browser total is what a visitor downloads; the critical part is the figure
 * that test guards, measured here from the bytes actually served.
 */
import { gzipSync } from 'node:zlib';
import { initLexer, staticImports } from '../support/static-imports.ts';
import type { Browser, Response } from 'playwright';

export interface JsFile {
  /** Path on the server, e.g. /assets/index-abc.js */
  path: string;
  raw: number;
  gzip: number;
  /** Body bytes as transferred (Content-Encoding applied, if any). */
  wire: number;
  critical: boolean;
}

export interface JsWeight {
  url: string;
  files: JsFile[];
  raw: number;
  gzip: number;
  wire: number;
  criticalGzip: number;
  lazyGzip: number;
  requests: number;
  /** All requests of the load (document, CSS, API, scripts). */
  allRequests: number;
  pageErrors: string[];
  /** Heading text seen after load: proof the page rendered its data, not an error or a spinner. */
  heading: string;
}

export interface MeasureOptions {
  /** File-name prefix of the route's page chunk, e.g. 'HomePage-'. */
  pageChunkPrefix: string;
  /** Text the rendered page must show (the check fails loudly rather than measuring a blank page). */
  expectText?: string;
  timeoutMs?: number;
}

interface Captured {
  path: string;
  body: Buffer;
  wire: number;
}

function entryScripts(html: string): string[] {
  return [...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g)].map((m) => m[1]!);
}

export async function measurePageJs(browser: Browser, url: string, options: MeasureOptions): Promise<JsWeight> {
  await initLexer();
  const timeout = options.timeoutMs ?? 30_000;
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/London' });
  try {
    context.setDefaultTimeout(timeout);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const pending: Promise<Captured | null>[] = [];
    let allRequests = 0;
    let documentHtml = '';
    const capture = async (response: Response): Promise<Captured | null> => {
      const request = response.request();
      const type = request.resourceType();
      const contentType = response.headers()['content-type'] ?? '';
      if (type === 'document' && request.frame() === page.mainFrame()) documentHtml = (await response.body()).toString('utf8');
      if (type !== 'script' && !/javascript|ecmascript/i.test(contentType)) return null;
      const body = await response.body();
      const sizes = await request.sizes();
      return { path: new URL(response.url()).pathname, body, wire: sizes.responseBodySize };
    };
    page.on('response', (response) => {
      allRequests += 1;
      pending.push(capture(response).catch(() => null));
    });

    await page.goto(url, { waitUntil: 'networkidle', timeout });
    const heading = (await page.locator('h1').first().textContent({ timeout })) ?? '';
    if (options.expectText) await page.getByText(options.expectText).first().waitFor({ state: 'visible', timeout });
    const captured = (await Promise.all(pending)).filter((c): c is Captured => c !== null);

    // Several responses for one path (a retried fetch) count as several downloads but one module.
    const modules = new Map(captured.map((c) => [c.path, c.body.toString('utf8')]));
    const resolve = (from: string, specifier: string) => new URL(specifier, new URL(from, url)).pathname;
    const roots = entryScripts(documentHtml).map((src) => resolve('/', src));
    const pageChunk = [...modules.keys()].find((p) => p.split('/').pop()!.startsWith(options.pageChunkPrefix));
    if (roots.length === 0) throw new Error(`${url}: no <script type="module" src> in the served HTML`);
    if (!pageChunk) throw new Error(`${url}: the page chunk ${options.pageChunkPrefix}*.js was not downloaded`);
    const critical = new Set<string>();
    const visit = (p: string) => {
      if (critical.has(p)) return;
      critical.add(p);
      const code = modules.get(p);
      if (code !== undefined) for (const specifier of staticImports(code)) visit(resolve(p, specifier));
    };
    [...roots, pageChunk].forEach(visit);

    const files = captured.map<JsFile>((c) => ({
      path: c.path,
      raw: c.body.length,
      gzip: gzipSync(c.body, { level: 9 }).length,
      wire: c.wire,
      critical: critical.has(c.path),
    }));
    const sum = (list: JsFile[], key: 'raw' | 'gzip' | 'wire') => list.reduce((total, f) => total + f[key], 0);
    return {
      url,
      files,
      raw: sum(files, 'raw'),
      gzip: sum(files, 'gzip'),
      wire: sum(files, 'wire'),
      criticalGzip: sum(files.filter((f) => f.critical), 'gzip'),
      lazyGzip: sum(files.filter((f) => !f.critical), 'gzip'),
      requests: files.length,
      allRequests,
      pageErrors,
      heading: heading.trim(),
    };
  } finally {
    await context.close().catch(() => undefined);
  }
}
