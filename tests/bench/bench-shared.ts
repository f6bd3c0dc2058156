/** Values both benchmark processes need. */

/** The trivial baseline route the benchmark server adds (never part of the product). */
export const BARE_ROUTE = '/api/bench/bare';

/**
 * The floor of signing (never part of the product): a signed-in POST that runs everything the sign
 * route runs before it signs (hooks, session lookup, schema, signer check) and then answers without
 * touching the database. What signing could reach if its database work cost nothing.
 */
export const SIGN_FLOOR_PREFIX = '/api/bench/sign-floor/';

/**
 * The limits a benchmark run sets (docs/limits.md): the load generator is one client address
 * driving thousands of requests a second over many connections, which the per-client limits exist
 * to refuse. So per-client rate limits are off and the per-client shares of connections and streams
 * are raised, unless the environment names them (e.g. RATE_LIMIT_SEARCH=30/10s to measure the
 * limit itself). The server prints what was in force (limitsSummary) and the bench repeats it.
 */
export function benchLimitEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const defaults: Record<string, string> = {
    RATE_LIMIT_SIGN_IN: 'off',
    RATE_LIMIT_SEARCH: 'off',
    RATE_LIMIT_LIST: 'off',
    RATE_LIMIT_EXPORT: 'off',
    CONNECTIONS_PER_CLIENT: '100000',
    STREAMS_PER_CLIENT: '100000',
  };
  const names = [...Object.keys(defaults), 'CONNECTIONS_TOTAL', 'STREAMS_TOTAL', 'STREAMS_PER_USER', 'DATABASE_POOL_WAIT_MS', 'SEARCH_CONNECTIONS'];
  return Object.fromEntries(names.flatMap((name) => (env[name] ?? defaults[name]) !== undefined ? [[name, (env[name] ?? defaults[name])!]] : []));
}
