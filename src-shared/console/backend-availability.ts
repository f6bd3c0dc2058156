/**
 * Whether an answer means the backend is not available at all, rather than that it answered this
 * action: no answer (network error, timeout), a proxy that could not reach it (502, 504) or a 503
 * other than maintenance (its database is down, it is shutting down). Such an action waits for the
 * backend, not on a backoff of its own: the console probes the backend and sends it as soon as it
 * answers (docs/console-outbox.md#backoff). Its own module: the console's first screen does not need
 * it (nor the messages it compares with).
 */
import { ERRORS } from '../domain/messages.ts';

/** `status` null: no answer at all; `detail` is the answer's Problem detail. */
export function waitsForBackend(status: number | null, detail: string | null | undefined): boolean {
  if (status === null || status === 502 || status === 504) return true;
  return status === 503 && detail !== ERRORS.maintenance;
}
