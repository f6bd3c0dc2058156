/**
 * The addresses of the operations the browser opens itself rather than through a call (a download link,
 * an <img>, an EventSource), named `api` + the operationId like the calls (caller.ts). The ones a visitor's page
 * opens (the list's CSV, the live stream) are in visitor-calls.ts, which the web app's first download holds anyway.
 */
import { STAFF_EVENTS_PATH } from '../domain/team-constants.ts';
import { segment, toQueryString } from './caller.ts';
import type { ApiCaller } from './caller.ts';
import type { AuditLogFilters } from './staff-calls.ts';

export const apiExportAuditLogCsv = (api: ApiCaller, filters: AuditLogFilters = {}) =>
  `${api.baseUrl}/api/audit-log.csv${toQueryString({ ...filters })}`;
export const apiGetAvatar = (api: ApiCaller, userId: string) => `${api.baseUrl}/avatar/${segment(userId)}`;
export const apiStreamStaffEvents = (api: ApiCaller) => `${api.baseUrl}${STAFF_EVENTS_PATH}`;
