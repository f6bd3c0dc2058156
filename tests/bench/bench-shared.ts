/** Values both benchmark processes need. */

/** The trivial baseline route the benchmark server adds (never part of the product). */
export const BARE_ROUTE = '/api/bench/bare';
