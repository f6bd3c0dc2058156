/**
 * Web performance figures (a script, not a test): `npm run perf:web`.
 *
 *   1. JavaScript a first-time visitor downloads for the public pages (home, list, petition, start a
 *      petition, the legal pages; Lighthouse runs on the first three), measured in
 *      Chromium (Playwright, empty cache, every script response until network idle, gzipped here at
 *      level 9), split into critical (what tests/renderer-unit/bundle-budget.test.ts budgets: entry +
 *      page chunk + their static imports) and lazy (fetched afterwards, e.g. the chart).
 *   2. Lighthouse performance and accessibility scores for the same pages, mobile preset (simulated
 *      throttling, the honest one) and desktop preset.
 *   3. A table against the targets of issue #24: ≤ 85 KB gzip of initial JS on every public page, mobile
 *      performance ≥ 98 (desktop ≥ 95), accessibility 100; each line says met or NO.
 *
 * Runs the real stack (tests/support/stack.ts) on a temporary database seeded with a current term and
 * ~30 petitions. Serves a private copy of dist-web so a rebuild by a parallel test run cannot pull
 * the assets from under the browser. Exits 0 when targets are missed (prints WARNING lines); exits 1
 * only when the measurement itself fails or exceeds its time budget.
 *
 * Options: --preset=mobile|desktop|both (default both)   --runs=N (default 1; median by performance)
 *          --timeout=SECONDS (default 300)                --out=DIR (write Lighthouse JSON reports)
 *
 * Figures vary with machine load (Lighthouse's simulated throttling scales from the CPU it observes):
 * compare runs on an idle machine, or use --runs=3.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import type { Browser } from 'playwright';
import { registerWebApp } from '../../src-server/http/web-app.ts';
import { ensureWebBuild, startStack } from '../support/stack.ts';
import type { Stack } from '../support/stack.ts';
import setupTemporaryRoot from '../support/temporary-root.ts';
import { measurePageJs } from './js-weight.ts';
import type { JsWeight } from './js-weight.ts';
import { launchLighthouseBrowser } from './lighthouse-runs.ts';
import type { LighthouseBrowser, LighthouseFigures, Preset } from './lighthouse-runs.ts';
import { FEATURED_TITLE, seedRealisticData } from './perf-seed.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIST_WEB = path.join(ROOT, 'dist-web');
/** The lock ensureWebBuild() holds while it rebuilds dist-web (tests/support/stack.ts). */
const BUILD_LOCK = path.join(ROOT, 'dist-web.build.lock');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PLAYWRIGHT_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const JS_BUDGET_KB = 85;
/** Lighthouse performance by preset: issue #24 asks 98 on mobile (the harder one); desktop keeps 95. */
const PERFORMANCE_TARGET: Record<Preset, number> = { mobile: 98, desktop: 95 };
const ACCESSIBILITY_TARGET = 100;
/** Rough upper bound of one Lighthouse run on a loaded 2-core machine; later runs are skipped when less remains. */
const LIGHTHOUSE_RUN_ESTIMATE_MS = 35_000;
const LIGHTHOUSE_RUN_TIMEOUT_MS = 90_000;

interface Options {
  presets: Preset[];
  runs: number;
  timeoutMs: number;
  outDir: string | null;
}

function parseOptions(argv: string[]): Options {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const preset = value('preset') ?? 'both';
  if (!['mobile', 'desktop', 'both'].includes(preset)) throw new Error(`--preset must be mobile, desktop or both (got ${preset})`);
  const runs = Number(value('runs') ?? 1);
  const timeout = Number(value('timeout') ?? 300);
  if (!Number.isInteger(runs) || runs < 1 || runs > 5) throw new Error('--runs must be 1 to 5');
  if (!Number.isFinite(timeout) || timeout < 30) throw new Error('--timeout must be at least 30 seconds');
  return {
    presets: preset === 'both' ? ['mobile', 'desktop'] : [preset as Preset],
    runs,
    timeoutMs: timeout * 1000,
    outDir: value('out') ? path.resolve(value('out')!) : null,
  };
}

interface PageSpec {
  name: string;
  path: string;
  pageChunkPrefix: string;
  /** Text the page shows once it has rendered its data. */
  expectText?: string;
  /** Lighthouse runs on these (each run costs about half a minute on a loaded machine). */
  lighthouse: boolean;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const pad = (text: string, width: number) => text.padEnd(width);
const padStart = (text: string, width: number) => text.padStart(width);
const log = (line = '') => process.stdout.write(`${line}\n`);
const elapsed = (start: number) => `${((Date.now() - start) / 1000).toFixed(1)} s`;

// ---------- resources and their cleanup ----------

const cleanups: { label: string; run: () => Promise<void> | void }[] = [];
let cleaning: Promise<void> | null = null;

function onCleanup(label: string, run: () => Promise<void> | void): void {
  cleanups.push({ label, run });
}

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    for (const { label, run } of cleanups.reverse()) {
      try {
        await Promise.race([Promise.resolve(run()), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 15_000).unref())]);
      } catch (error) {
        process.stderr.write(`cleanup of ${label} failed: ${(error as Error).message}\n`);
      }
    }
  })();
  return cleaning;
}

async function finish(code: number): Promise<never> {
  await cleanup();
  process.exit(code);
}

/** A copy of dist-web taken while holding the build lock, so no parallel rebuild is caught half-way. */
async function snapshotWebBuild(): Promise<string> {
  const started = Date.now();
  for (;;) {
    try {
      fs.writeFileSync(BUILD_LOCK, String(process.pid), { flag: 'wx' });
      break;
    } catch {
      if (Date.now() - started > 120_000) throw new Error(`${BUILD_LOCK} held for over 2 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-perf-web-'));
    fs.cpSync(DIST_WEB, dir, { recursive: true });
    const html = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
    for (const [, ref] of html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)) {
      if (!fs.existsSync(path.join(dir, ref!))) throw new Error(`dist-web is incomplete: ${ref} missing`);
    }
    return dir;
  } finally {
    fs.rmSync(BUILD_LOCK, { force: true });
  }
}

// ---------- report ----------

function median(figures: LighthouseFigures[]): LighthouseFigures {
  const sorted = [...figures].sort((a, b) => (a.performance ?? -1) - (b.performance ?? -1));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function printJsBreakdown(page: PageSpec, weight: JsWeight): void {
  log(`  ${page.name} (${page.path}): ${weight.requests} JS requests of ${weight.allRequests} in all; heading "${weight.heading}"`);
  for (const file of [...weight.files].sort((a, b) => b.gzip - a.gzip)) {
    log(`    ${pad(file.path, 46)} ${padStart(kb(file.gzip), 6)} KB gz ${padStart(kb(file.raw), 7)} KB raw ${padStart(kb(file.wire), 7)} KB wire  ${file.critical ? 'critical' : 'lazy'}`);
  }
  if (weight.pageErrors.length > 0) log(`    page errors: ${weight.pageErrors.join(' | ')}`);
}

function printTable(pages: PageSpec[], js: Map<string, JsWeight>, lh: Map<string, LighthouseFigures>, presets: Preset[]): void {
  const header = [pad('Page', 8), pad('Path', 22), padStart('JS gz KB', 9), padStart('critical', 9), padStart('lazy', 6), padStart('raw KB', 7), padStart('wire KB', 8), padStart('JS req', 7)];
  for (const preset of presets) header.push(padStart(`${preset} perf`, 12), padStart(`${preset} a11y`, 12));
  log(header.join(' '));
  log('-'.repeat(header.join(' ').length));
  for (const page of pages) {
    const w = js.get(page.name);
    const row = [pad(page.name, 8), pad(page.path, 22)];
    row.push(
      padStart(w ? kb(w.gzip) : 'n/a', 9),
      padStart(w ? kb(w.criticalGzip) : 'n/a', 9),
      padStart(w ? kb(w.lazyGzip) : 'n/a', 6),
      padStart(w ? kb(w.raw) : 'n/a', 7),
      padStart(w ? kb(w.wire) : 'n/a', 8),
      padStart(w ? String(w.requests) : 'n/a', 7),
    );
    for (const preset of presets) {
      const f = lh.get(`${preset} ${page.name}`);
      const none = page.lighthouse ? 'skipped' : '–';
      row.push(padStart(f ? String(f.performance ?? 'n/a') : none, 12), padStart(f ? String(f.accessibility ?? 'n/a') : none, 12));
    }
    log(row.join(' '));
  }
}

// ---------- main ----------

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const start = Date.now();
  const deadline = start + options.timeoutMs;
  const watchdog = setTimeout(() => {
    process.stderr.write(`\nERROR: perf:web exceeded its ${options.timeoutMs / 1000} s budget; stopping.\n`);
    void finish(1);
  }, options.timeoutMs);
  watchdog.unref();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: cleaning up\n`);
      void finish(130);
    });
  }

  // Every temporary file of the run, the browsers' own included, goes in one folder removed at the end, as for the tests.
  onCleanup('temporary folder', setupTemporaryRoot());
  log(`perf:web — ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (figures vary with load)`);

  // 1. Build (when dist-web is older than its sources), snapshot, start the stack and seed it.
  const distBefore = fs.statSync(path.join(DIST_WEB, 'index.html'), { throwIfNoEntry: false })?.mtimeMs ?? 0;
  await ensureWebBuild();
  const distAfter = fs.statSync(path.join(DIST_WEB, 'index.html')).mtimeMs;
  const webRoot = await snapshotWebBuild();
  log(`web build: ${distAfter !== distBefore ? 'rebuilt (npx vite build)' : 'dist-web already current'}; serving a copy from ${webRoot} [${elapsed(start)}]`);

  const stack: Stack = await startStack({
    serveWebApp: false,
    extraRoutes: (app) => {
      void app.register((instance) => registerWebApp(instance, webRoot));
    },
  });
  onCleanup('stack', () => stack.close());
  const seeded = await seedRealisticData(stack.context);
  log(`stack: ${stack.baseUrl}; seeded ${seeded.petitions} petitions, ${seeded.signatures} signatures; featured petition #${seeded.featuredId} [${elapsed(start)}]`);

  const pages: PageSpec[] = [
    { name: 'home', path: '/', pageChunkPrefix: 'HomePage-', expectText: FEATURED_TITLE, lighthouse: true },
    { name: 'list', path: '/petitions', pageChunkPrefix: 'PetitionListPage-', expectText: FEATURED_TITLE, lighthouse: true },
    { name: 'detail', path: `/petition/${seeded.featuredId}`, pageChunkPrefix: 'PetitionDetailPage-', expectText: FEATURED_TITLE, lighthouse: true },
    { name: 'create', path: '/create-petition', pageChunkPrefix: 'CreatePetitionPage-', lighthouse: false },
    { name: 'privacy', path: '/privacypolicy', pageChunkPrefix: 'LegalPages-', lighthouse: false },
    { name: 'terms', path: '/terms-and-conditions', pageChunkPrefix: 'LegalPages-', lighthouse: false },
  ];

  // 2. JavaScript downloaded, measured in the browser.
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: PLAYWRIGHT_ARGS });
  onCleanup('Playwright Chromium', () => browser.close());
  const js = new Map<string, JsWeight>();
  for (const page of pages) {
    js.set(page.name, await measurePageJs(browser, stack.baseUrl + page.path, { pageChunkPrefix: page.pageChunkPrefix, expectText: page.expectText }));
  }
  await browser.close();
  log(`JavaScript measured in Chromium [${elapsed(start)}]`);
  for (const page of pages) printJsBreakdown(page, js.get(page.name)!);

  // 3. Lighthouse, one Chromium for every run.
  const lhBrowser: LighthouseBrowser = await launchLighthouseBrowser(CHROMIUM_PATH);
  onCleanup('Lighthouse Chromium', () => lhBrowser.close());
  const lh = new Map<string, LighthouseFigures>();
  const skipped: string[] = [];
  for (const preset of options.presets) {
    for (const page of pages.filter((p) => p.lighthouse)) {
      const runs: LighthouseFigures[] = [];
      for (let i = 0; i < options.runs; i += 1) {
        if (deadline - Date.now() < LIGHTHOUSE_RUN_ESTIMATE_MS + 15_000) break;
        const runStart = Date.now();
        runs.push(await lhBrowser.run(stack.baseUrl + page.path, preset, Math.min(LIGHTHOUSE_RUN_TIMEOUT_MS, deadline - Date.now() - 10_000)));
        log(`Lighthouse ${preset} ${page.name} run ${i + 1}: performance ${runs.at(-1)!.performance}, accessibility ${runs.at(-1)!.accessibility} [${((Date.now() - runStart) / 1000).toFixed(1)} s]`);
      }
      if (runs.length === 0) {
        skipped.push(`${preset} ${page.name}`);
        continue;
      }
      const chosen = median(runs);
      lh.set(`${preset} ${page.name}`, chosen);
      if (options.outDir) {
        fs.mkdirSync(options.outDir, { recursive: true });
        fs.writeFileSync(path.join(options.outDir, `lighthouse-${preset}-${page.name}.json`), JSON.stringify(chosen.lhr));
      }
    }
  }
  await lhBrowser.close();

  // 4. Report.
  log();
  log('Figures');
  log('  JS gz KB = every script the browser fetched until network idle, gzip -9 (the visitor\'s download);');
  log('  critical = entry + page chunk + static imports (what tests/renderer-unit/bundle-budget.test.ts budgets); lazy = fetched later;');
  log('  wire KB = bytes actually sent (the server sends its precompressed .br or .gz). Lighthouse: mobile = default config (emulated');
  log('  Moto G Power, simulated slow 4G, 4x CPU slowdown); desktop = desktop config. Median of ' + options.runs + ' run(s).');
  log();
  printTable(pages, js, lh, options.presets);
  log();

  for (const [key, f] of lh) {
    log(`Lighthouse ${key}: ${Object.entries(f.metrics).map(([name, value]) => `${name} ${value}`).join(', ')}; benchmarkIndex ${f.benchmarkIndex ?? 'n/a'}`);
    for (const hint of f.performanceHints.slice(0, 8)) {
      log(`    perf: ${hint.id}${hint.displayValue ? ` (${hint.displayValue})` : ''} score ${hint.score ?? 'n/a'}`);
      // Which elements move or block (layout shifts, LCP element): the lead for fixing them.
      if (/cls|layout-shift|lcp/.test(hint.id)) for (const selector of hint.selectors.slice(0, 5)) log(`        ${selector}`);
    }
    for (const failure of f.accessibilityFailures) {
      log(`    a11y FAIL: ${failure.id} — ${failure.title}`);
      for (const selector of failure.selectors.slice(0, 8)) log(`        ${selector}`);
    }
    for (const warning of f.runWarnings) log(`    run warning: ${warning}`);
  }
  log();

  const warnings: string[] = [];
  log('Targets');
  const verdict = (met: boolean) => (met ? 'met' : 'NO');
  for (const page of pages) {
    const w = js.get(page.name)!;
    const met = w.gzip / 1024 <= JS_BUDGET_KB;
    log(`  ${pad(page.name, 7)} initial JS ≤ ${JS_BUDGET_KB} KB gzip: ${kb(w.gzip)} KB (critical ${kb(w.criticalGzip)} KB) — ${verdict(met)}`);
    if (!met) warnings.push(`${page.name}: ${kb(w.gzip)} KB gzip of JS > ${JS_BUDGET_KB} KB`);
  }
  for (const preset of options.presets) {
    const target = PERFORMANCE_TARGET[preset];
    for (const page of pages) {
      const f = lh.get(`${preset} ${page.name}`);
      if (!f) continue;
      const perfMet = (f.performance ?? 0) >= target;
      const a11yMet = (f.accessibility ?? 0) >= ACCESSIBILITY_TARGET;
      log(`  ${pad(page.name, 7)} ${pad(preset, 7)} performance ≥ ${target}: ${f.performance} — ${verdict(perfMet)}; accessibility ${ACCESSIBILITY_TARGET}: ${f.accessibility} — ${verdict(a11yMet)}`);
      if (!perfMet) warnings.push(`${page.name} ${preset}: performance ${f.performance} < ${target}`);
      if (!a11yMet) warnings.push(`${page.name} ${preset}: accessibility ${f.accessibility} < ${ACCESSIBILITY_TARGET} (${f.accessibilityFailures.map((a) => a.id).join(', ')})`);
    }
  }
  if (skipped.length > 0) warnings.push(`Lighthouse skipped for lack of time: ${skipped.join(', ')} (raise --timeout)`);
  log();
  for (const warning of warnings) log(`WARNING: ${warning}`);
  if (warnings.length === 0) log('All targets met.');
  log(`done in ${elapsed(start)}`);
  clearTimeout(watchdog);
}

main().then(
  () => finish(0),
  (error: unknown) => {
    process.stderr.write(`ERROR: perf:web failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return finish(1);
  },
);
