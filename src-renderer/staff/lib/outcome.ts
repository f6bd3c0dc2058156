/**
 * Outcome texts of staff actions, as plain data so every staff section shows successes,
 * failures and stale-version conflicts the same way. The server is the authority: when it
 * refuses a request with a reason (a 4xx `detail`), that reason is shown; otherwise our own
 * fallback text (docs/rules.md#texts-and-messages).
 */
import { ApiError } from '../../../src-shared/api/client.ts';

export interface Outcome {
  tone: 'success' | 'error';
  text: string;
  /** A second line: the server's reason, when it adds something to `text`. */
  detail?: string | null;
  /**
   * The petition changed since it was loaded (412). The screen offers a reload next to the
   * server's explanation.
   */
  conflict?: boolean;
}

export function success(text: string): Outcome {
  return { tone: 'success', text };
}

export function isVersionConflict(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 412;
}

export function isNotFound(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 404;
}

/** The server's own reason for refusing, when it gave one (client errors only: 5xx details are not for users). */
export function serverReason(error: unknown): string | null {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.detail) return error.detail;
  return null;
}

/**
 * 'Failed to … Please try again.' or, when the server said why, its reason instead.
 * A 412 is always a conflict carrying the server's explanation.
 */
export function failure(error: unknown, fallback: string): Outcome {
  const reason = serverReason(error);
  if (isVersionConflict(error)) return { tone: 'error', text: reason ?? fallback, conflict: true };
  return { tone: 'error', text: reason ?? fallback };
}

/**
 * Term failures keep their fixed wording — 'Failed to create parliamentary term' followed by
 * 'Please try again' — and carry the server's reason on a second line.
 */
export type TermAction = 'create' | 'update' | 'delete';

export function termFailure(action: TermAction, error: unknown): Outcome {
  return {
    tone: 'error',
    text: `Failed to ${action} parliamentary term. Please try again.`,
    detail: serverReason(error),
  };
}

/** 'Failed to update status: {message}'. */
export function statusFailure(error: unknown): Outcome {
  const message =
    serverReason(error) ??
    (error instanceof ApiError && error.detail ? error.detail : error instanceof Error ? error.message : 'Unknown error');
  return { tone: 'error', text: `Failed to update status: ${message}`, conflict: isVersionConflict(error) };
}

/** 'Failed to update N petition(s). Please try again.' */
export function partialFailureText(failed: number): string {
  return `Failed to update ${failed} petition(s). Please try again.`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
