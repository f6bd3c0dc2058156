/**
 * The seam between the staff screens and where their writes go. On the web a write is the API
 * call itself; in the staff console the same screen's write becomes an outbox action (sent when
 * online, never lost offline) and the screen says it was queued. Screens describe each write
 * twice, as the staff action and as the direct call, and use whichever the host performs.
 */
import { createContext, useContext } from 'react';
import type { StaffActionInput } from '../../../src-shared/console/staff-actions.ts';
import type { Outcome } from './outcome.ts';

export interface Queued {
  queued: true;
  /** One line about what was queued, e.g. 'Create the term "2027"'. */
  summary: string;
}

export interface StaffWrites {
  /** True in the console: writes are queued, and actions with no queued form are not offered. */
  readonly queues: boolean;
  perform<T>(action: StaffActionInput, direct: () => Promise<T>): Promise<T | Queued>;
}

export const directWrites: StaffWrites = {
  queues: false,
  perform: (_action, direct) => direct(),
};

const StaffWritesContext = createContext<StaffWrites>(directWrites);
export const StaffWritesProvider = StaffWritesContext.Provider;

export function useStaffWrites(): StaffWrites {
  return useContext(StaffWritesContext);
}

export function isQueued(value: unknown): value is Queued {
  return typeof value === 'object' && value !== null && (value as { queued?: unknown }).queued === true;
}

export function queuedOutcome(queued: Queued): Outcome {
  return { tone: 'success', text: `Queued: ${queued.summary}. The outbox sends it as soon as the console is online.` };
}
