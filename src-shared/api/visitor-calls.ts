/**
 * The calls a visitor's pages make, signed in or not: site status, terms, petitions, signing, starting a
 * petition, sign-in (caller.ts says how calls are grouped). Each is named by the operationId of the route
 * it calls (tests/api-contract checks it), and so are the links a visitor's page opens (the list's CSV, the
 * live stream: client.ts puts them among the client's links).
 */
import { LIVE_EVENTS_PATH } from '../domain/constants.ts';
import { segment, toQueryString } from './caller.ts';
import type { ApiCaller } from './caller.ts';
import type { CheckExpiredResult, CreatePetitionRequest, DailyAllowance, HomeStats, HourlySignatures, Petition, PetitionCount, PetitionDetail, PetitionList, PetitionListRequest, Session, SignersPage, SignRequest, SignResult, SiteStatus, Term, User } from '../domain/schemas.ts';
import type { Retention } from '../domain/privacy-schemas.ts';
import type { ReportReceipt, ReportRequest, SimilarPetitionList } from '../domain/moderation-schemas.ts';

export const getSiteStatus = (api: ApiCaller) => api.request<SiteStatus>('GET', '/api/site-status');
export const getHomeStats = (api: ApiCaller) => api.request<HomeStats>('GET', '/api/stats');
export const listTerms = (api: ApiCaller) => api.request<Term[]>('GET', '/api/parliamentary-terms');
export const listPetitions = (api: ApiCaller, query: PetitionListRequest = {}) => api.request<PetitionList>('GET', `/api/petitions${toQueryString(query)}`);
export const getPetition = (api: ApiCaller, petitionId: number) => api.request<PetitionDetail>('GET', `/api/petitions/${segment(petitionId)}`);
export const listPetitionSigners = (api: ApiCaller, petitionId: number, query: { offset?: number; limit?: number } = {}) =>
  api.request<SignersPage>('GET', `/api/petitions/${segment(petitionId)}/signers${toQueryString(query)}`);
export const getPetitionCount = (api: ApiCaller, petitionId: number) => api.request<PetitionCount>('GET', `/api/petitions/${segment(petitionId)}/count`);
export const getSignaturesByHour = (api: ApiCaller, petitionId: number) =>
  api.request<HourlySignatures>('GET', `/api/petitions/${segment(petitionId)}/signatures-by-hour`);
export const getDailyAllowance = (api: ApiCaller) => api.request<DailyAllowance>('GET', '/api/petitions/daily-allowance');
export const createPetition = (api: ApiCaller, body: CreatePetitionRequest) => api.request<Petition>('POST', '/api/petitions', body);
export const signPetition = (api: ApiCaller, petitionId: number, body: SignRequest = {}) =>
  api.request<SignResult>('POST', `/api/petitions/${segment(petitionId)}/sign`, body);
export const unsignPetition = (api: ApiCaller, petitionId: number, body: SignRequest = {}) =>
  api.request<SignResult>('POST', `/api/petitions/${segment(petitionId)}/unsign`, body);
export const closeExpiredPetitions = (api: ApiCaller) => api.request<CheckExpiredResult>('POST', '/api/petitions/check-expired');
export const reportPetition = (api: ApiCaller, petitionId: number, body: ReportRequest) =>
  api.request<ReportReceipt>('POST', `/api/petitions/${segment(petitionId)}/reports`, body);
export const findSimilarPetitions = (api: ApiCaller, title: string) => api.request<SimilarPetitionList>('GET', `/api/petitions/similar${toQueryString({ title })}`);
export const startSignIn = (api: ApiCaller, query: { returnTo?: string } = {}) =>
  api.request<{ auth_url: string }>('GET', `/api/auth/roblox/login${toQueryString(query)}`);
export const finishSignIn = (api: ApiCaller, code: string, state: string) =>
  api.request<{ id: string; returnTo?: string | null }>('POST', '/api/auth/roblox/callback', { code, state });
export const getSession = (api: ApiCaller) => api.request<Session>('GET', '/api/auth/session');
export const getSignedInUser = (api: ApiCaller, userId: string) => api.request<User>('GET', `/api/auth/roblox/user/${segment(userId)}`);
export const signOut = (api: ApiCaller, userId: string) => api.request<{ message: string }>('POST', `/api/auth/roblox/logout/${segment(userId)}`);
export const getRetention = (api: ApiCaller) => api.request<Retention>('GET', '/api/privacy/retention');

// Links, not calls (client.ts binds them as `links.…`): the list as CSV, and the live stream of site state
// with one petition's count (its events: live-events.ts).

export const exportPetitionsCsv = (api: ApiCaller, query: PetitionListRequest = {}) =>
  `${api.baseUrl}/api/petitions.csv${toQueryString(query)}`;
export const streamSiteEvents = (api: Pick<ApiCaller, 'baseUrl'>, petitionId: number | null = null) =>
  `${api.baseUrl.replace(/\/$/, '')}${LIVE_EVENTS_PATH}${petitionId === null ? '' : `?petition=${petitionId}`}`;
