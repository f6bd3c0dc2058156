/**
 * Drives one endpoint with autocannon (the library) and measures it. autocannon's own histogram
 * has no p95, so latencies are also collected from its per-response events. One call is one slice
 * of a scenario; `summarise` merges a scenario's slices into its figures.
 */
import autocannon from 'autocannon';

export interface RequestShape {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: string;
  /** Produces the next request; called once per request sent. */
  next: () => RequestShape;
  /** Connections for this scenario, when not the run's (latency of one member's call rather than of a saturated server). */
  connections?: number;
}

/** What one autocannon run of a scenario saw. */
export interface Slice {
  latencies: Float64Array;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationSeconds: number;
}

export interface ScenarioResult {
  name: string;
  /** 2xx responses per second. */
  okPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

export interface LoadOptions {
  /** Several servers (nodes on one database): autocannon spreads its connections over them in turn. */
  baseUrls: readonly string[];
  connections: number;
  durationSeconds: number;
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runSlice(scenario: Scenario, options: LoadOptions): Promise<Slice> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  let ok = 0;
  let non2xx = 0;
  let finish!: (result: autocannon.Result) => void;
  let fail!: (error: unknown) => void;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  const instance = autocannon({
    // autocannon takes an array of targets and opens connection i to target i mod n (its typings say string only).
    url: (options.baseUrls.length === 1 ? options.baseUrls[0]! : [...options.baseUrls]) as string,
    connections: scenario.connections ?? options.connections,
    duration: options.durationSeconds,
    requests: [
      {
        setupRequest: (request) => {
          const next = scenario.next();
          return { ...request, method: next.method, path: next.path, headers: next.headers ?? {}, body: next.body ?? '' };
        },
      },
    ],
  }, (error, result) => (error ? fail(error) : finish(result)));
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (count === latencies.length) {
      const grown = new Float64Array(latencies.length * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[count] = responseTime;
    count += 1;
    if (statusCode >= 200 && statusCode < 300) ok += 1;
    else non2xx += 1;
  });
  const result = await done;
  return { latencies: latencies.slice(0, count), ok, non2xx, errors: result.errors, timeouts: result.timeouts, durationSeconds: result.duration };
}

/** One scenario's figures over all of its slices: rates over their summed time, percentiles over every response. */
export function summarise(name: string, slices: readonly Slice[]): ScenarioResult {
  const total = slices.reduce((sum, slice) => sum + slice.latencies.length, 0);
  const all = new Float64Array(total);
  let offset = 0;
  for (const slice of slices) {
    all.set(slice.latencies, offset);
    offset += slice.latencies.length;
  }
  all.sort();
  const sum = (pick: (slice: Slice) => number) => slices.reduce((acc, slice) => acc + pick(slice), 0);
  return {
    name,
    okPerSecond: sum((s) => s.ok) / Math.max(1e-9, sum((s) => s.durationSeconds)),
    p50: percentile(all, 50),
    p95: percentile(all, 95),
    p99: percentile(all, 99),
    total,
    non2xx: sum((s) => s.non2xx),
    errors: sum((s) => s.errors),
    timeouts: sum((s) => s.timeouts),
  };
}
