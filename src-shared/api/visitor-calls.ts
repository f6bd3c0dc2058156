/**
 * The calls a visitor's pages make, signed in or not: site status, terms, petitions, signing, starting a
 * petition, sign-in (caller.ts says how calls are grouped). Each is named `api` + the operationId of the route
 * it calls (tests/api-contract checks it), and so are the links a visitor's page opens (the list's CSV, the
 * live stream: client.ts puts them among the client's links).
 */
import { LIVE_EVENTS_PATH } from '../domain/core-constants.ts';
import { segment, toQueryString } from './caller.ts';
import type { ApiCaller } from './caller.ts';
import type { CheckExpiredResult, CreatePetitionRequest, DailyAllowance, HomeStats, HourlySignatures, Petition, PetitionCount, PetitionDetail, PetitionList, PetitionListRequest, Session, SignersPage, SignRequest, SignResult, SiteStatus, Term, User } from '../domain/schemas.ts';
import type { Retention } from '../domain/privacy-schemas.ts';
import type { ReportReceipt, ReportRequest, SimilarPetitionList } from '../domain/moderation-schemas.ts';

export const apiGetSiteStatus = (api: ApiCaller) => api.request<SiteStatus>('GET', '/api/site-status');
export const apiGetHomeStats = (api: ApiCaller) => api.request<HomeStats>('GET', '/api/stats');
export const apiListTerms = (api: ApiCaller) => api.request<Term[]>('GET', '/api/parliamentary-terms');
export const apiListPetitions = (api: ApiCaller, query: PetitionListRequest = {}) => api.request<PetitionList>('GET', `/api/petitions${toQueryString(query)}`);
export const apiGetPetition = (api: ApiCaller, petitionId: number) => api.request<PetitionDetail>('GET', `/api/petitions/${segment(petitionId)}`);
export const apiListPetitionSigners = (api: ApiCaller, petitionId: number, query: { offset?: number; limit?: number } = {}) =>
  api.request<SignersPage>('GET', `/api/petitions/${segment(petitionId)}/signers${toQueryString(query)}`);
export const apiGetPetitionCount = (api: ApiCaller, petitionId: number) => api.request<PetitionCount>('GET', `/api/petitions/${segment(petitionId)}/count`);
export const apiGetSignaturesByHour = (api: ApiCaller, petitionId: number) =>
  api.request<HourlySignatures>('GET', `/api/petitions/${segment(petitionId)}/signatures-by-hour`);
export const apiGetDailyAllowance = (api: ApiCaller) => api.request<DailyAllowance>('GET', '/api/petitions/daily-allowance');
export const apiCreatePetition = (api: ApiCaller, body: CreatePetitionRequest) => api.request<Petition>('POST', '/api/petitions', body);
export const apiSignPetition = (api: ApiCaller, petitionId: number, body: SignRequest = {}) =>
  api.request<SignResult>('POST', `/api/petitions/${segment(petitionId)}/sign`, body);
export const apiUnsignPetition = (api: ApiCaller, petitionId: number, body: SignRequest = {}) =>
  api.request<SignResult>('POST', `/api/petitions/${segment(petitionId)}/unsign`, body);
export const apiCloseExpiredPetitions = (api: ApiCaller) => api.request<CheckExpiredResult>('POST', '/api/petitions/check-expired');
export const apiReportPetition = (api: ApiCaller, petitionId: number, body: ReportRequest) =>
  api.request<ReportReceipt>('POST', `/api/petitions/${segment(petitionId)}/reports`, body);
export const apiFindSimilarPetitions = (api: ApiCaller, title: string) => api.request<SimilarPetitionList>('GET', `/api/petitions/similar${toQueryString({ title })}`);
export const apiStartSignIn = (api: ApiCaller, query: { returnTo?: string } = {}) =>
  api.request<{ auth_url: string }>('GET', `/api/auth/roblox/login${toQueryString(query)}`);
export const apiFinishSignIn = (api: ApiCaller, code: string, state: string) =>
  api.request<{ id: string; returnTo?: string | null }>('POST', '/api/auth/roblox/callback', { code, state });
export const apiGetSession = (api: ApiCaller) => api.request<Session>('GET', '/api/auth/session');
export const apiGetSignedInUser = (api: ApiCaller, userId: string) => api.request<User>('GET', `/api/auth/roblox/user/${segment(userId)}`);
export const apiSignOut = (api: ApiCaller, userId: string) => api.request<{ message: string }>('POST', `/api/auth/roblox/logout/${segment(userId)}`);
export const apiGetRetention = (api: ApiCaller) => api.request<Retention>('GET', '/api/privacy/retention');

// Links, not calls (client.ts binds them as `links.…`): the list as CSV, and the live stream of site state
// with one petition's count (its events: live-events.ts).

export const apiExportPetitionsCsv = (api: ApiCaller, query: PetitionListRequest = {}) =>
  `${api.baseUrl}/api/petitions.csv${toQueryString(query)}`;
export const apiStreamSiteEvents = (api: Pick<ApiCaller, 'baseUrl'>, petitionId: number | null = null) =>
  `${api.baseUrl.replace(/\/$/, '')}${LIVE_EVENTS_PATH}${petitionId === null ? '' : `?petition=${petitionId}`}`;
