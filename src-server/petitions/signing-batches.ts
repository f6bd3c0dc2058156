/**
 * What both engines' signing services (signing.ts, signing-postgres.ts) share about their batches:
 * the calls waiting for one, and the tally of those written.
 */
import type { SignResult, User } from '../../src-shared/domain/schemas.ts';

export type SignAction = 'sign' | 'unsign';

/** A sign or unsign call waiting for its batch: stamped when it arrived, answered through `settle`. */
export interface SignCall {
  action: SignAction;
  petitionId: number;
  user: User;
  stamp: string;
  settle: (outcome: SignResult | Error) => void;
}

/**
 * The calls waiting for a batch, in arrival order. Calls that arrive in one turn of the event loop
 * join one batch: `onTurn` runs once, after the turn in which the first of them arrived, and takes
 * the calls it writes.
 */
export function createSignCallQueue(deps: { now: () => Date; onTurn: () => void }) {
  let waiting: SignCall[] = [];
  let scheduled = false;
  return {
    submit(action: SignAction, user: User, petitionId: number): Promise<SignResult> {
      return new Promise((resolve, reject) => {
        waiting.push({
          action,
          petitionId,
          user,
          stamp: deps.now().toISOString(),
          settle: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)),
        });
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => {
            scheduled = false;
            deps.onTurn();
          });
        }
      });
    },
    /** Takes the waiting calls `admit` lets into a batch (all of them by default); the others go on waiting. */
    take(admit: (call: SignCall) => boolean = () => true): SignCall[] {
      const taken: SignCall[] = [];
      const left: SignCall[] = [];
      for (const call of waiting) (admit(call) ? taken : left).push(call);
      waiting = left;
      return taken;
    },
    waiting: () => waiting.length,
  };
}

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
