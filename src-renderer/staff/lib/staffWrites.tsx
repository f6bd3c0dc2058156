/**
 * The seam between the staff screens and where their writes go. A screen describes each write
 * once, as a staff action (src-shared/console/staff-actions.ts). On the web the action is performed
 * at once through its API call and the screen gets the API's answer; in the staff console the same
 * action becomes an outbox row (sent when online, never lost offline) and the screen says it was
 * queued.
 */
import { createContext, useContext } from 'react';
import type { ApiClient } from '../../../src-shared/api/client.ts';
import {
  performStaffAction,
  type StaffActionOf,
  type StaffActionResult,
} from '../../../src-shared/console/staff-action-calls.ts';
import type { StaffActionKind } from '../../../src-shared/console/staff-actions.ts';
import { api } from '../../services/api.ts';
import type { Outcome } from './outcome.ts';

export interface Queued {
  queued: true;
  /** One line about what was queued, e.g. 'Create the term "2027"'. */
  summary: string;
}

export interface StaffWrites {
  /** True in the console: writes are queued, and actions with no queued form are not offered. */
  readonly queues: boolean;
  perform<K extends StaffActionKind>(action: StaffActionOf<K>): Promise<StaffActionResult<K> | Queued>;
}

/** Writes that are performed at once, through `client`: the web app's. */
export function directWrites(client: ApiClient): StaffWrites {
  return {
    queues: false,
    perform: <K extends StaffActionKind>(action: StaffActionOf<K>): Promise<StaffActionResult<K> | Queued> =>
      performStaffAction<K>(client, action),
  };
}

const StaffWritesContext = createContext<StaffWrites>(directWrites(api));
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
