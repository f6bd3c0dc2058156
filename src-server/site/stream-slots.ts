/**
 * How many live-event streams may be open at once: per client address, per signed-in user, and in
 * total (a share of the process's file descriptors: server-capacity.ts). docs/limits.md#event-streams.
 * A stream over a caller's own share answers 429 (that caller only); over the total, 503.
 */
import { LIMIT_MESSAGES } from '../../src-shared/rules/limits.ts';
import { HttpError } from '../http/problem.ts';

/** How soon a refused page should try again: long enough that a flood backs off, short for a person. */
export const STREAM_RETRY_AFTER_SECONDS = 30;

export interface StreamSlotLimits {
  perClient: number;
  perUser: number;
  total: number;
}

export interface StreamSlots {
  /** Takes a slot for this caller or throws the 429/503; the returned release gives it back (idempotent). */
  acquire(holder: { client: string; user: string | null }): () => void;
  stats(): { open: number; clients: number; users: number };
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}

export function createStreamSlots(limits: StreamSlotLimits): StreamSlots {
  const perClient = new Map<string, number>();
  const perUser = new Map<string, number>();
  let open = 0;
  const retryAfter = { 'retry-after': String(STREAM_RETRY_AFTER_SECONDS) };

  return {
    acquire({ client, user }) {
      if ((perClient.get(client) ?? 0) >= limits.perClient) throw new HttpError(429, LIMIT_MESSAGES.streamsPerClient, {}, retryAfter);
      if (user !== null && (perUser.get(user) ?? 0) >= limits.perUser) throw new HttpError(429, LIMIT_MESSAGES.streamsPerUser, {}, retryAfter);
      if (open >= limits.total) throw new HttpError(503, LIMIT_MESSAGES.serverBusy, {}, retryAfter);
      open += 1;
      bump(perClient, client, 1);
      if (user !== null) bump(perUser, user, 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        open -= 1;
        bump(perClient, client, -1);
        if (user !== null) bump(perUser, user, -1);
      };
    },
    stats: () => ({ open, clients: perClient.size, users: perUser.size }),
  };
}
