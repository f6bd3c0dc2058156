/**
 * What this process's signing batches did since it started: how many transactions, how many sign
 * and unsign calls they carried (refusals included) and how long they took. Both engines sign in
 * batches (signing.ts, signing-postgres.ts), and a batch's fixed cost is shared by its calls, so
 * calls per batch explains much of what a signature costs the database
 * (docs/operations.md#signing-batches). Served as metrics and read by the benchmark.
 */
export interface SigningBatchStats {
  batches: number;
  calls: number;
  seconds: number;
}

export function createSigningBatchTally() {
  const stats: SigningBatchStats = { batches: 0, calls: 0, seconds: 0 };
  return {
    /** One batch of `calls` calls, begun at `startedAt` (performance.now()), has ended, written or failed. */
    record(calls: number, startedAt: number): void {
      stats.batches += 1;
      stats.calls += calls;
      stats.seconds += (performance.now() - startedAt) / 1000;
    },
    stats: (): SigningBatchStats => ({ ...stats }),
  };
}
