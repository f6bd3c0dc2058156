/**
 * Lighthouse (npm `lighthouse`, programmatic) against Debian's Chromium, launched once by
 * chrome-launcher and reused for every run. Only the performance and accessibility categories.
 *
 * Presets: 'mobile' is Lighthouse's default config (Moto G Power-class emulation, simulated slow 4G
 * and 4x CPU slowdown, the honest one); 'desktop' is its desktop config (no CPU slowdown, fast
 * network). Storage is reset before every run, so each is a first visit with an empty cache.
 */
import { launch, type LaunchedChrome } from 'chrome-launcher';
import lighthouse, { desktopConfig } from 'lighthouse';
import type { Flags, Result } from 'lighthouse';

export type Preset = 'mobile' | 'desktop';

export const LIGHTHOUSE_CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
] as const;

export interface FailingAudit {
  id: string;
  title: string;
  score: number | null;
  displayValue?: string;
  /** CSS selectors of the offending elements (accessibility audits), at most a few. */
  selectors: string[];
}

export interface LighthouseFigures {
  url: string;
  preset: Preset;
  performance: number | null;
  accessibility: number | null;
  /** Short name → display value, e.g. LCP → '2.1 s'. */
  metrics: Record<string, string>;
  /** Accessibility audits that count towards the score and did not pass. */
  accessibilityFailures: FailingAudit[];
  /** Performance audits with metric savings or a score under 0.9 (hints for why performance is low). */
  performanceHints: FailingAudit[];
  benchmarkIndex: number | null;
  runWarnings: string[];
  lhr: Result;
}

export interface LighthouseBrowser {
  chrome: LaunchedChrome;
  run(url: string, preset: Preset, timeoutMs: number): Promise<LighthouseFigures>;
  close(): Promise<void>;
}

/** CSS selectors of every element node in an audit's details (tables, lists of tables, …), deduplicated. */
function selectorsOf(details: unknown): string[] {
  const selectors = new Set<string>();
  const walk = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    if (record.type === 'node' && typeof record.selector === 'string' && record.selector) selectors.add(record.selector);
    for (const child of Object.values(record)) walk(child, depth + 1);
  };
  walk(details, 0);
  return [...selectors];
}

function summarise(lhr: Result, url: string, preset: Preset): LighthouseFigures {
  const score = (id: string) => {
    const s = lhr.categories[id]?.score;
    return s === null || s === undefined ? null : Math.round(s * 100);
  };
  const metrics: Record<string, string> = {};
  for (const [id, name] of METRICS) metrics[name] = lhr.audits[id]?.displayValue ?? 'n/a';

  const accessibilityFailures: FailingAudit[] = [];
  for (const ref of lhr.categories.accessibility?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id];
    if (!audit || ref.weight === 0 || audit.score === null || audit.score >= 1) continue;
    accessibilityFailures.push({ id: ref.id, title: audit.title, score: audit.score, selectors: selectorsOf(audit.details) });
  }

  const performanceHints: FailingAudit[] = [];
  for (const ref of lhr.categories.performance?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id];
    if (!audit || ref.group === 'metrics' || audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'informative') continue;
    const savings = Object.values(audit.metricSavings ?? {}).some((v) => typeof v === 'number' && v > 0);
    if ((audit.score !== null && audit.score < 0.9) || savings) {
      performanceHints.push({ id: ref.id, title: audit.title, score: audit.score, displayValue: audit.displayValue, selectors: selectorsOf(audit.details) });
    }
  }

  return {
    url,
    preset,
    performance: score('performance'),
    accessibility: score('accessibility'),
    metrics,
    accessibilityFailures,
    performanceHints,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
    runWarnings: (lhr.runWarnings ?? []).map(String),
    lhr,
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} timed out after ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function launchLighthouseBrowser(chromePath: string): Promise<LighthouseBrowser> {
  const chrome = await launch({ chromePath, chromeFlags: LIGHTHOUSE_CHROME_FLAGS, handleSIGINT: false, logLevel: 'silent' });
  let closed = false;
  return {
    chrome,
    async run(url, preset, timeoutMs) {
      const flags: Flags = {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility'],
        maxWaitForLoad: Math.min(45_000, timeoutMs),
      };
      const result = await withTimeout(lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined), timeoutMs, `Lighthouse ${preset} ${url}`);
      if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`Lighthouse ${preset} ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      return summarise(lhr, url, preset);
    },
    async close() {
      if (closed) return;
      closed = true;
      // chrome-launcher starts Chromium as a process-group leader and kills that group.
      chrome.kill();
    },
  };
}
