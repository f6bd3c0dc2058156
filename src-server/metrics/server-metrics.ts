/**
 * The server's Prometheus metrics (docs/operations.md#metrics), with prom-client. Each application
 * has a registry of its own (tests run many in one process); the process and Node metrics
 * (`process_*`, `nodejs_*`) are one per process, collected once and served with every application's.
 */
import client, { Counter, Histogram, Registry } from 'prom-client';

/** Seconds: from a cached read (milliseconds) to a slow export. */
const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface ServerMetrics {
  registry: Registry;
  /** By route pattern (`/api/petitions/:id`, never the raw URL, so ids cannot explode the series), method and status. */
  httpDuration: Histogram<'route' | 'method' | 'status_code'>;
  /** Signatures this process added (unsigning does not count down: it is a counter). */
  signatures: Counter;
  /** This application's metrics followed by the process's, in the text format. */
  text(): Promise<string>;
  contentType: string;
}

let processRegistry: Registry | null = null;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    client.collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its response, by route pattern, method and status code',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const signatures = new Counter({
    name: 'petitions_signatures_total',
    help: 'Signatures added through this server process since it started',
    registers: [registry],
  });
  return {
    registry,
    httpDuration,
    signatures,
    contentType: registry.contentType,
    async text() {
      return `${await registry.metrics()}\n${await processMetrics().metrics()}`;
    },
  };
}
