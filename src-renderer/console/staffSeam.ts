/**
 * Lets the web app's administrator screens (src-renderer/staff) run inside the console: their reads
 * go through `data:read` (live or from the offline cache) and their writes become outbox actions.
 */
import type { ConsoleApi } from '../../src-shared/console/ipc-contract.ts';
import { setApiTransport } from '../services/api.ts';
import type { StaffWrites } from '../staff/lib/staffWrites.tsx';
import { errorMessage } from './consoleApi.ts';
import type { ConsoleStores } from './state/stores.ts';

function pathOf(input: RequestInfo | URL): string {
  const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const url = new URL(raw, 'http://console.invalid');
  return `${url.pathname}${url.search}`;
}

const json = (body: unknown, status: number) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * Reads that only mean something fresh: a stored copy would be taken for the server's answer now
 * (an invalidation preview counts what matches at this moment; docs/integrity.md#invalidation).
 */
const LIVE_ONLY_READS = ['/api/integrity/invalidations/preview'];
const LIVE_ONLY_OFFLINE = 'This needs the server, which cannot be reached now.';

/** A fetch for the shared API client that answers GETs from `data:read` and refuses direct writes. */
export function consoleReadFetch(api: ConsoleApi): typeof fetch {
  return async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    if (method !== 'GET') throw new TypeError('In the console, writes go through the outbox');
    const path = pathOf(input);
    const result = await api.invoke('data:read', { path });
    if (!result.ok) {
      return json({ type: 'about:blank', title: 'Not available', status: 503, detail: result.message }, 503);
    }
    if (result.value.fromCache && LIVE_ONLY_READS.some((prefix) => path.startsWith(prefix))) {
      return json({ type: 'about:blank', title: 'Not available', status: 503, detail: LIVE_ONLY_OFFLINE }, 503);
    }
    return json(result.value.data, 200);
  };
}

/**
 * Points the web app's API client (services/api.ts) at `data:read`: called by the screens that
 * reuse web staff code, so the console's first screen does not carry that client.
 */
export function readWebScreensThroughConsole(api: ConsoleApi): void {
  setApiTransport(consoleReadFetch(api));
}

export function consoleWrites(stores: ConsoleStores): StaffWrites {
  return {
    queues: true,
    async perform(action) {
      try {
        const [entry] = await stores.outbox.getState().enqueue([action]);
        return { queued: true, summary: entry?.summary ?? action.kind };
      } catch (error) {
        // Shown by the screen as its own failure text.
        throw new Error(errorMessage(error), { cause: error });
      }
    },
  };
}

