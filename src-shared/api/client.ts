/**
 * Typed fetch client for every call of the API, used by the web app and the staff console.
 * It carries only types from the schemas, so the browser bundle does not pull in zod.
 */
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../domain/constants.ts';
import type {
  AuditEntry,
  Ban,
  BanStats,
  CheckExpiredResult,
  CreatePetitionRequest,
  DailyAllowance,
  DebateRequest,
  GovernmentResponseRequest,
  HomeStats,
  HourlySignatures,
  Petition,
  PetitionCount,
  PetitionDetail,
  PetitionList,
  PetitionListRequest,
  Problem,
  Session,
  SignersPage,
  SignRequest,
  SignResult,
  SiteStatus,
  Term,
  TermChangePreview,
  TermPatchRequest,
  TermRequest,
  User,
} from '../domain/schemas.ts';
import type { PetitionStatus } from '../domain/constants.ts';
import type { BulkStatusRequest, BulkStatusResponse, QueueChanges } from '../domain/sync-schemas.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly detail: string;
  readonly problem: Problem | null;
  /** The answer's Retry-After header (seconds or an HTTP date), for callers that retry. */
  readonly retryAfter: string | null;

  constructor(status: number, detail: string, problem: Problem | null, retryAfter: string | null = null) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.problem = problem;
    this.retryAfter = retryAfter;
  }
}

/** Thrown when the server could not be reached at all, so callers can show their network texts. */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('Network request failed', { cause });
    this.name = 'NetworkError';
  }
}

export interface StaffWriteOptions {
  /** The petition version the staff member saw; a stale one is refused with 412. */
  ifMatch?: number;
  /** Makes a retried write (for example from the console's outbox) apply at most once. */
  idempotencyKey?: string;
}

export interface ApiClientOptions {
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Extra headers on every call, e.g. the console's session header. */
  headers?: () => Record<string, string>;
}

type Query = Record<string, string | number | boolean | undefined | null>;

export function toQueryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = (options.baseUrl ?? '').replace(/\/$/, '');
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));

  async function request<T>(
    method: string,
    path: string,
    body?: unknown,
    write: StaffWriteOptions = {},
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', ...(options.headers?.() ?? {}) };
    if (method !== 'GET' && method !== 'HEAD') headers[CSRF_HEADER] = CSRF_HEADER_VALUE;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (write.ifMatch !== undefined) headers['if-match'] = `"${write.ifMatch}"`;
    if (write.idempotencyKey) headers['idempotency-key'] = write.idempotencyKey;
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers,
        credentials: 'include',
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new NetworkError(error);
    }
    const text = await response.text();
    const data: unknown = text ? safeJson(text) : undefined;
    if (!response.ok) {
      const problem = isProblem(data) ? data : null;
      throw new ApiError(
        response.status,
        problem?.detail ?? response.statusText ?? 'Request failed',
        problem,
        response.headers.get('retry-after'),
      );
    }
    return data as T;
  }

  const get = <T>(path: string) => request<T>('GET', path);
  const id = (value: number | string) => encodeURIComponent(String(value));

  return {
    /** Any GET of the API by path (the console's read cache stores what comes back). */
    read: <T = unknown>(path: string) => get<T>(path),

    // site
    getSiteStatus: () => get<SiteStatus>('/api/site-status'),
    setMaintenance: (maintenance: boolean, write?: StaffWriteOptions) =>
      request<SiteStatus>('PUT', '/api/site-status', { maintenance }, write),
    getStats: () => get<HomeStats>('/api/stats'),
    getAuditLog: (query: { limit?: number; before?: number } = {}) =>
      get<{ items: AuditEntry[] }>(`/api/audit-log${toQueryString(query)}`),

    // terms
    listTerms: () => get<Term[]>('/api/parliamentary-terms'),
    createTerm: (body: TermRequest, write?: StaffWriteOptions) =>
      request<Term>('POST', '/api/parliamentary-terms', body, write),
    updateTerm: (termId: number, body: TermPatchRequest, write?: StaffWriteOptions) =>
      request<Term>('PATCH', `/api/parliamentary-terms/${id(termId)}`, body, write),
    deleteTerm: (termId: number, write?: StaffWriteOptions) =>
      request<{ message: string }>('DELETE', `/api/parliamentary-terms/${id(termId)}`, undefined, write),
    /** Changes nothing: what the PATCH would do to the term's petitions ({} for a deletion's count). */
    previewTermChange: (termId: number, body: TermPatchRequest) =>
      request<TermChangePreview>('POST', `/api/parliamentary-terms/${id(termId)}/preview`, body),

    // petitions
    listPetitions: (query: PetitionListRequest = {}) => get<PetitionList>(`/api/petitions${toQueryString(query)}`),
    petitionsCsvUrl: (query: PetitionListRequest = {}) => `${baseUrl}/api/petitions.csv${toQueryString(query)}`,
    getPetition: (petitionId: number) => get<PetitionDetail>(`/api/petitions/${id(petitionId)}`),
    getSigners: (petitionId: number, query: { offset?: number; limit?: number } = {}) =>
      get<SignersPage>(`/api/petitions/${id(petitionId)}/signers${toQueryString(query)}`),
    getCount: (petitionId: number) => get<PetitionCount>(`/api/petitions/${id(petitionId)}/count`),
    getHourlySignatures: (petitionId: number) =>
      get<HourlySignatures>(`/api/petitions/${id(petitionId)}/signatures-by-hour`),
    getDailyAllowance: () => get<DailyAllowance>('/api/petitions/daily-allowance'),
    createPetition: (body: CreatePetitionRequest) => request<Petition>('POST', '/api/petitions', body),
    assignPetition: (petitionId: number, termId: number | null, write?: StaffWriteOptions) =>
      request<Petition>('PATCH', `/api/petitions/${id(petitionId)}`, { termId }, write),
    setPetitionStatus: (petitionId: number, status: PetitionStatus, write?: StaffWriteOptions) =>
      request<Petition>('PATCH', `/api/petitions/${id(petitionId)}/status`, { status }, write),
    sign: (petitionId: number, body: SignRequest = {}) =>
      request<SignResult>('POST', `/api/petitions/${id(petitionId)}/sign`, body),
    unsign: (petitionId: number, body: SignRequest = {}) =>
      request<SignResult>('POST', `/api/petitions/${id(petitionId)}/unsign`, body),
    deletePetition: (petitionId: number, write?: StaffWriteOptions) =>
      request<{ message: string }>('DELETE', `/api/petitions/${id(petitionId)}`, undefined, write),
    deleteAllPetitions: (confirmation: string) =>
      request<{ deleted: number }>('POST', '/api/petitions/delete-all', { confirmation }),
    saveGovernmentResponse: (petitionId: number, body: GovernmentResponseRequest, write?: StaffWriteOptions) =>
      request<Petition>('POST', `/api/petitions/${id(petitionId)}/government-response`, body, write),
    deleteGovernmentResponse: (petitionId: number, write?: StaffWriteOptions) =>
      request<Petition>('DELETE', `/api/petitions/${id(petitionId)}/government-response`, undefined, write),
    saveDebateInfo: (petitionId: number, body: DebateRequest, write?: StaffWriteOptions) =>
      request<Petition>('POST', `/api/petitions/${id(petitionId)}/debate-info`, body, write),
    deleteDebateInfo: (petitionId: number, write?: StaffWriteOptions) =>
      request<Petition>('DELETE', `/api/petitions/${id(petitionId)}/debate-info`, undefined, write),
    setPetitionStatuses: (body: BulkStatusRequest) => request<BulkStatusResponse>('POST', '/api/petitions/bulk-status', body),
    getQueueChanges: (query: { since?: string; limit?: number } = {}) =>
      get<QueueChanges>(`/api/petitions/queue-changes${toQueryString(query)}`),
    checkExpired: () => request<CheckExpiredResult>('POST', '/api/petitions/check-expired'),

    // bans
    getBanStats: () => get<BanStats>('/api/ban-stats'),
    listBans: () => get<Ban[]>('/api/bans'),
    ban: (userId: string, reason: string, write?: StaffWriteOptions) =>
      request<Ban>('PUT', `/api/bans/${id(userId)}`, { reason }, write),
    unban: (userId: string, write?: StaffWriteOptions) =>
      request<{ message: string }>('DELETE', `/api/bans/${id(userId)}`, undefined, write),

    // auth
    getLoginUrl: (query: { returnTo?: string } = {}) =>
      get<{ auth_url: string }>(`/api/auth/roblox/login${toQueryString(query)}`),
    completeLogin: (code: string, state: string) =>
      request<{ id: string; returnTo?: string | null }>('POST', '/api/auth/roblox/callback', { code, state }),
    getSession: () => get<Session>('/api/auth/session'),
    getUser: (userId: string) => get<User>(`/api/auth/roblox/user/${id(userId)}`),
    logout: (userId: string) => request<{ message: string }>('POST', `/api/auth/roblox/logout/${id(userId)}`),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isProblem(value: unknown): value is Problem {
  return typeof value === 'object' && value !== null && typeof (value as { detail?: unknown }).detail === 'string';
}
