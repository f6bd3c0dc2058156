/** Values both benchmark processes need. */

/** The trivial baseline route the benchmark server adds (never part of the product). */
export const BARE_ROUTE = '/api/bench/bare';

/**
 * The floor of signing (never part of the product): a signed-in POST that runs everything the sign
 * route runs before it signs (hooks, session lookup, schema, signer check) and then answers without
 * touching the database. What signing could reach if its database work cost nothing.
 */
export const SIGN_FLOOR_PREFIX = '/api/bench/sign-floor/';
