/**
 * The typed API client: every call of the API as methods of one object, for the staff console, the web
 * app's staff screens and the tests. The calls themselves live in visitor-calls.ts, member-calls.ts and
 * staff-calls.ts as functions of a caller (caller.ts), which the web app's public pages import one by one
 * so that they carry only the calls they make (docs/operations.md#javascript-weight); this binds them all.
 */
import { createApiCaller } from './caller.ts';
import type { ApiCaller, ApiClientOptions } from './caller.ts';
import {
  apiCloseExpiredPetitions,
  apiCreatePetition,
  apiExportPetitionsCsv,
  apiFindSimilarPetitions,
  apiFinishSignIn,
  apiGetDailyAllowance,
  apiGetHomeStats,
  apiGetPetition,
  apiGetPetitionCount,
  apiGetRetention,
  apiGetSession,
  apiGetSignaturesByHour,
  apiGetSignedInUser,
  apiGetSiteStatus,
  apiListPetitionSigners,
  apiListPetitions,
  apiListTerms,
  apiReportPetition,
  apiSignOut,
  apiSignPetition,
  apiStartSignIn,
  apiStreamSiteEvents,
  apiUnsignPetition,
} from './visitor-calls.ts';
import * as memberCalls from './member-calls.ts';
import * as staffCalls from './staff-calls.ts';
import * as linkBuilders from './links.ts';

export { ApiError, NetworkError, createApiCaller, toQueryString } from './caller.ts';
export type { ApiCaller, ApiClientOptions, StaffWriteOptions } from './caller.ts';
export type { AuditLogFilters, AuditLogQuery } from './staff-calls.ts';

/**
 * A call with its caller given, named by its operationId: `apiGetPetition(caller, 7)` becomes
 * `client.getPetition(7)`. (The functions carry the `api` prefix because the server's own functions have the
 * operations' names: one name per thing, tests/codebase/export-names.test.ts.)
 */
type Bound<Call> = Call extends (api: ApiCaller, ...args: infer Args) => infer Result ? (...args: Args) => Result : never;
type OperationId<Name> = Name extends `api${infer Rest}` ? Uncapitalize<Rest> : never;
type BoundAll<Calls> = { -readonly [Name in keyof Calls as OperationId<Name>]: Bound<Calls[Name]> };

function bindAll<Calls extends Record<string, (api: ApiCaller, ...args: never[]) => unknown>>(
  api: ApiCaller,
  calls: Calls,
): BoundAll<Calls> {
  const bound: Record<string, unknown> = {};
  for (const [name, call] of Object.entries(calls)) {
    bound[name.charAt(3).toLowerCase() + name.slice(4)] = (...args: never[]) => call(api, ...args);
  }
  return bound as BoundAll<Calls>;
}

// Named one by one rather than `import * as`: the web app's first download holds visitor-calls.ts, and a
// namespace import here would make it build the module's namespace object there too. The API contract test
// (tests/api-contract/client-operation-names.test.ts) fails when a call is missing from this list.
const visitorCalls = {
  apiGetSiteStatus,
  apiGetHomeStats,
  apiListTerms,
  apiListPetitions,
  apiGetPetition,
  apiListPetitionSigners,
  apiGetPetitionCount,
  apiGetSignaturesByHour,
  apiGetDailyAllowance,
  apiCreatePetition,
  apiSignPetition,
  apiUnsignPetition,
  apiCloseExpiredPetitions,
  apiReportPetition,
  apiFindSimilarPetitions,
  apiStartSignIn,
  apiFinishSignIn,
  apiGetSession,
  apiGetSignedInUser,
  apiSignOut,
  apiGetRetention,
};
// The visitor's links live with the visitor's calls (the web app's first download has them anyway).
const visitorLinks = { apiExportPetitionsCsv, apiStreamSiteEvents };

type Calls = typeof visitorCalls & typeof memberCalls & typeof staffCalls;

export type ApiClient = BoundAll<Calls> & {
  /**
   * Any GET of the API by path (the console's read cache stores what comes back): its JSON, or its
   * text when it is not JSON (a CSV); no operation of its own.
   */
  read<T = unknown>(path: string): Promise<T>;
  /** The addresses of the operations the browser opens itself (links.ts). */
  links: BoundAll<typeof visitorLinks & typeof linkBuilders>;
};

/** Every call of the API over one caller (a new one from `options`, or one the app already has). */
export function createApiClient(options: ApiClientOptions | ApiCaller = {}): ApiClient {
  const api = 'request' in options ? options : createApiCaller(options);
  return {
    ...bindAll(api, visitorCalls),
    ...bindAll(api, memberCalls),
    ...bindAll(api, staffCalls),
    read: <T = unknown>(path: string) => api.request<T>('GET', path),
    links: { ...bindAll(api, visitorLinks), ...bindAll(api, linkBuilders) },
  };
}
