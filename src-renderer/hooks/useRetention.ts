/**
 * The retention periods this site is configured with (GET /api/privacy/retention), for the pages that state
 * them: the operator may have changed the defaults, and a policy must say what the site does.
 */
import type { Retention } from '../../src-shared/domain/privacy-schemas.ts';
import { apiCaller } from '../services/apiCaller.ts';
import { apiGetRetention } from '../../src-shared/api/visitor-calls.ts';
import { useAsync } from './useAsync.ts';

/** The periods as words in a sentence ("6 months"); "some" while they load or when the call failed. */
export type RetentionWords = Record<keyof Retention, string>;

export function useRetention(): RetentionWords {
  const { data } = useAsync(() => apiGetRetention(apiCaller), []);
  return {
    signerMonths: data ? String(data.signerMonths) : 'some',
    notificationMonths: data ? String(data.notificationMonths) : 'some',
  };
}
