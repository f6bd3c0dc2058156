/**
 * While the console cannot reach a working backend, it asks `/readyz` (no session, no database
 * work beyond `select 1`) whether it is back, instead of each queued action retrying on a backoff
 * of its own: the actions are sent as soon as the backend answers ready
 * (docs/console-outbox.md#backoff). Probes come a few seconds apart at first and further apart as
 * the outage lasts, never more than 30 s: after a one-minute outage the next probe is at most 3 s
 * away.
 */

export const PROBE_MIN_INTERVAL_MS = 2_000;
export const PROBE_MAX_INTERVAL_MS = 30_000;
/** A probe the backend has not answered by then counts as no answer. */
export const PROBE_TIMEOUT_MS = 5_000;

/** The wait before the next probe: a twentieth of the outage so far, between 2 and 30 seconds. */
export function probeIntervalMs(outageMs: number): number {
  return Math.min(PROBE_MAX_INTERVAL_MS, Math.max(PROBE_MIN_INTERVAL_MS, Math.round(outageMs / 20)));
}

export interface BackendProbeOptions {
  apiBaseUrl: string;
  fetch: typeof fetch;
  now: () => number;
  /** The backend answered /readyz with 200. */
  onReady: () => void;
  /** Every probe and what came of it (tests, logs). */
  onProbe?: (outcome: { at: number; status: number | null }) => void;
}

export type BackendProbe = ReturnType<typeof createBackendProbe>;

export function createBackendProbe(options: BackendProbeOptions) {
  const url = `${options.apiBaseUrl.replace(/\/$/, '')}/readyz`;
  let timer: NodeJS.Timeout | null = null;
  let outageSince: number | null = null;
  let probing = false;

  function schedule(delay: number): void {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void probe();
    }, delay);
    // A probe never keeps the process alive on its own.
    timer.unref?.();
  }

  async function probe(): Promise<void> {
    if (outageSince === null || probing) return;
    probing = true;
    let status: number | null = null;
    try {
      const response = await options.fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      status = response.status;
      await response.body?.cancel();
    } catch {
      // No answer (refused, reset, timed out): status stays null.
    } finally {
      probing = false;
    }
    options.onProbe?.({ at: options.now(), status });
    if (outageSince === null) return;
    if (status === 200) {
      outageSince = null;
      options.onReady();
      return;
    }
    schedule(probeIntervalMs(options.now() - outageSince));
  }

  return {
    /** The backend is not available: probe until it is (a running probe keeps its pace). */
    start(): void {
      if (outageSince !== null) return;
      outageSince = options.now();
      schedule(PROBE_MIN_INTERVAL_MS);
    },
    /** The backend answered some other way (a sent action, a read): no more probes. */
    stop(): void {
      outageSince = null;
      if (timer) clearTimeout(timer);
      timer = null;
    },
    running(): boolean {
      return outageSince !== null;
    },
  };
}
