/**
 * The limits in force, as one log line at start (and for benchmarks to print): the file-descriptor
 * limit read from the system and the totals derived from it, each per-client limit, the timeouts.
 */
import { formatRateLimit, RATE_LIMITS, type RateLimitName } from '../../src-shared/rules/limits.ts';
import type { AppContext } from '../context.ts';

export function limitsSummary(context: Pick<AppContext, 'config' | 'capacity' | 'dialect'>): Record<string, unknown> {
  const { limits, databasePool } = context.config;
  const { capacity } = context;
  const rates = Object.fromEntries(
    (Object.keys(RATE_LIMITS) as RateLimitName[]).map((name) => {
      const rule = limits.rates[name];
      return [name, rule ? formatRateLimit(rule) : 'off'];
    }),
  );
  return {
    fileDescriptorLimit: capacity.fdLimit ?? 'unknown',
    connections: { total: capacity.connectionsTotal, perClient: capacity.connectionsPerClient },
    streams: { total: capacity.streamsTotal, perClient: limits.streamsPerClient, perUser: limits.streamsPerUser, maxAgeMs: limits.streamMaxAgeMs },
    rates,
    timeouts: { headersMs: limits.headersTimeoutMs, requestMs: limits.requestTimeoutMs, keepAliveMs: limits.keepAliveTimeoutMs },
    trustProxy: limits.trustProxy.length ? limits.trustProxy : 'none (client address = socket peer)',
    ...(context.dialect === 'postgres' ? { databasePoolWaitMs: databasePool.poolWaitMs, searchConnections: limits.searchConnections ?? 'half the pool' } : {}),
  };
}
