/**
 * Typed fetch client for every call of the API, used by the web app and the staff console.
 * It carries only types from the schemas, so the browser bundle does not pull in zod.
 */
import { ACTION_MADE_AT_HEADER, CSRF_HEADER, CSRF_HEADER_VALUE } from '../domain/constants.ts';
import { liveEventsUrl } from './live-events.ts';
import type {
  AuditLogActor,
  AuditLogPage,
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
import type {
  InvalidationCriteriaInput,
  InvalidationJob,
  InvalidationPreview,
  InvalidationRequest,
  RestoreRequest,
  UnusualSigning,
} from '../domain/integrity-schemas.ts';
import type { BulkStatusRequest, BulkStatusResponse, QueueChanges } from '../domain/sync-schemas.ts';
import type { AccountDeletionResult, Retention } from '../domain/privacy-schemas.ts';
import type {
  ModerationBulkRequest,
  ModerationBulkResponse,
  ModerationCase,
  ModerationDecisionRequest,
  ModerationQueue,
  RejectionReason,
  RejectionReasonRequest,
  ReportReceipt,
  ReportRequest,
  SimilarPetitionList,
} from '../domain/moderation-schemas.ts';
import type { ModerationQueueView } from '../domain/moderation-constants.ts';
import type {
  FeedPage,
  FeedPreferences,
  FeedPreferencesPatch,
  FeedRequest,
  MarkAllReadRequest,
  MutedPetitions,
  MuteState,
  MyPetitionsResult,
  MyPetitionsRequest,
  NotificationAudience,
  UnreadCount,
} from '../domain/feed-schemas.ts';
import type { FeedTopic } from '../domain/feed-constants.ts';
import type { PushConfig, PushDevice, PushDevices, PushSubscriptionRequest } from '../domain/push-schemas.ts';
import { STAFF_EVENTS_PATH } from '../domain/team-constants.ts';
import type { PresenceList, QueueSummary, SetPresenceRequest, Statistics } from '../domain/team-schemas.ts';

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
  /** When the action was made (ISO 8601), if before it is sent: the console's outbox sends its row's time. */
  madeAt?: string;
}

/** The audit log's filters (GET /api/audit-log and its CSV): docs/audit.md#reading-the-log. */
export interface AuditLogFilters {
  /** A user id, or `system`. */
  actor?: string;
  action?: string;
  petition?: number;
  /** UK calendar days, YYYY-MM-DD, inclusive. */
  from?: string;
  to?: string;
}

export interface AuditLogQuery extends AuditLogFilters {
  limit?: number;
  /** The previous page's `nextCursor`. */
  cursor?: string;
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

/** The query string of an invalidation preview (InvalidationPreviewQuery in integrity-schemas.ts reads it), from criteria as a form or a queued action holds them. */
function previewQuery(criteria: InvalidationCriteriaInput): Record<string, string | number | undefined> {
  return {
    petition: criteria.petitionId ?? undefined,
    signedFrom: criteria.signedFrom ?? undefined,
    signedTo: criteria.signedTo ?? undefined,
    accountYoungerThanDays: criteria.accountYoungerThanDays ?? undefined,
    userIds: criteria.userIds?.length ? criteria.userIds.join(',') : undefined,
  };
}

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = (options.baseUrl ?? '').replace(/\/$/, '');
  const doFetch = options.fetch ?? ((...request: Parameters<typeof fetch>) => fetch(...request));

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
    if (write.madeAt) headers[ACTION_MADE_AT_HEADER] = write.madeAt;
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
    let data: unknown = text ? safeJson(text) : undefined;
    // A successful answer that is not JSON (a CSV read through `read`) is its text.
    if (data === undefined && text && response.ok) data = text;
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

  // Each method is named by the operationId of the route it calls (tests/api-contract checks it).
  return {
    /**
     * Any GET of the API by path (the console's read cache stores what comes back): its JSON, or its
     * text when it is not JSON (a CSV); no operation of its own.
     */
    read: <T = unknown>(path: string) => get<T>(path),

    /**
     * The addresses of the operations the browser opens itself rather than through fetch (a
     * download link, an <img>, an EventSource), also named by operationId.
     */
    links: {
      exportPetitionsCsv: (query: PetitionListRequest = {}) => `${baseUrl}/api/petitions.csv${toQueryString(query)}`,
      exportAuditLogCsv: (filters: AuditLogFilters = {}) => `${baseUrl}/api/audit-log.csv${toQueryString({ ...filters })}`,
      getAvatar: (userId: string) => `${baseUrl}/avatar/${id(userId)}`,
      streamSiteEvents: (petitionId: number | null = null) => liveEventsUrl(baseUrl, petitionId),
      streamStaffEvents: () => `${baseUrl}${STAFF_EVENTS_PATH}`,
    },

    // site
    getSiteStatus: () => get<SiteStatus>('/api/site-status'),
    setMaintenance: (maintenance: boolean, write?: StaffWriteOptions) =>
      request<SiteStatus>('PUT', '/api/site-status', { maintenance }, write),
    getHomeStats: () => get<HomeStats>('/api/stats'),
    listAuditLog: (query: AuditLogQuery = {}) => get<AuditLogPage>(`/api/audit-log${toQueryString({ ...query })}`),
    listAuditLogActors: () => get<{ items: AuditLogActor[] }>('/api/audit-log/actors'),
    /** `message` is a Discord webhook message (content and embeds); the server checks it against Discord's limits. */
    queueChatMessage: (message: Record<string, unknown>, write?: StaffWriteOptions) =>
      request<{ message: string }>('POST', '/api/notifications/discord', message, write),

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
    getPetition: (petitionId: number) => get<PetitionDetail>(`/api/petitions/${id(petitionId)}`),
    listPetitionSigners: (petitionId: number, query: { offset?: number; limit?: number } = {}) =>
      get<SignersPage>(`/api/petitions/${id(petitionId)}/signers${toQueryString(query)}`),
    getPetitionCount: (petitionId: number) => get<PetitionCount>(`/api/petitions/${id(petitionId)}/count`),
    getSignaturesByHour: (petitionId: number) =>
      get<HourlySignatures>(`/api/petitions/${id(petitionId)}/signatures-by-hour`),
    getDailyAllowance: () => get<DailyAllowance>('/api/petitions/daily-allowance'),
    createPetition: (body: CreatePetitionRequest) => request<Petition>('POST', '/api/petitions', body),
    assignPetitionTerm: (petitionId: number, termId: number | null, write?: StaffWriteOptions) =>
      request<Petition>('PATCH', `/api/petitions/${id(petitionId)}`, { termId }, write),
    setPetitionStatus: (petitionId: number, status: PetitionStatus, write?: StaffWriteOptions) =>
      request<Petition>('PATCH', `/api/petitions/${id(petitionId)}/status`, { status }, write),
    signPetition: (petitionId: number, body: SignRequest = {}) =>
      request<SignResult>('POST', `/api/petitions/${id(petitionId)}/sign`, body),
    unsignPetition: (petitionId: number, body: SignRequest = {}) =>
      request<SignResult>('POST', `/api/petitions/${id(petitionId)}/unsign`, body),
    deletePetition: (petitionId: number, write?: StaffWriteOptions) =>
      request<{ message: string }>('DELETE', `/api/petitions/${id(petitionId)}`, undefined, write),
    deleteAllPetitions: (confirmation: string) =>
      request<{ deleted: number }>('POST', '/api/petitions/delete-all', { confirmation }),
    getLastOffice: () => get<{ office: string | null }>('/api/me/last-office'),
    saveGovernmentResponse: (petitionId: number, body: GovernmentResponseRequest, write?: StaffWriteOptions) =>
      request<Petition>('POST', `/api/petitions/${id(petitionId)}/government-response`, body, write),
    removeGovernmentResponse: (petitionId: number, write?: StaffWriteOptions) =>
      request<Petition>('DELETE', `/api/petitions/${id(petitionId)}/government-response`, undefined, write),
    saveDebateInfo: (petitionId: number, body: DebateRequest, write?: StaffWriteOptions) =>
      request<Petition>('POST', `/api/petitions/${id(petitionId)}/debate-info`, body, write),
    removeDebateInfo: (petitionId: number, write?: StaffWriteOptions) =>
      request<Petition>('DELETE', `/api/petitions/${id(petitionId)}/debate-info`, undefined, write),
    /** `write.madeAt` applies to every item (the keys are per item, in the body). */
    setPetitionStatuses: (body: BulkStatusRequest, write: Pick<StaffWriteOptions, 'madeAt'> = {}) =>
      request<BulkStatusResponse>('POST', '/api/petitions/bulk-status', body, write),
    getQueueChanges: (query: { since?: string; limit?: number } = {}) =>
      get<QueueChanges>(`/api/petitions/queue-changes${toQueryString(query)}`),
    closeExpiredPetitions: () => request<CheckExpiredResult>('POST', '/api/petitions/check-expired'),

    // community safety (docs/moderation.md)
    reportPetition: (petitionId: number, body: ReportRequest) =>
      request<ReportReceipt>('POST', `/api/petitions/${id(petitionId)}/reports`, body),
    findSimilarPetitions: (title: string) => get<SimilarPetitionList>(`/api/petitions/similar${toQueryString({ title })}`),
    listModerationQueue: (query: { view?: ModerationQueueView; page?: number; pageSize?: number } = {}) =>
      get<ModerationQueue>(`/api/moderation/queue${toQueryString(query)}`),
    getModerationCase: (petitionId: number) => get<ModerationCase>(`/api/moderation/petitions/${id(petitionId)}`),
    moderatePetition: (petitionId: number, body: ModerationDecisionRequest, write?: StaffWriteOptions) =>
      request<Petition>('POST', `/api/petitions/${id(petitionId)}/moderation`, body, write),
    /** `write.madeAt` applies to every item (the keys are per item, in the body). */
    moderatePetitions: (body: ModerationBulkRequest, write: Pick<StaffWriteOptions, 'madeAt'> = {}) =>
      request<ModerationBulkResponse>('POST', '/api/petitions/bulk-moderation', body, write),
    listRejectionReasons: () => get<RejectionReason[]>('/api/rejection-reasons'),
    saveRejectionReason: (code: string, body: RejectionReasonRequest, write?: StaffWriteOptions) =>
      request<RejectionReason>('PUT', `/api/rejection-reasons/${id(code)}`, body, write),
    deleteRejectionReason: (code: string, write?: StaffWriteOptions) =>
      request<{ message: string }>('DELETE', `/api/rejection-reasons/${id(code)}`, undefined, write),
    // My petitions and the notification centre (docs/notifications.md): only ever the signed-in member's
    listMyPetitions: (query: MyPetitionsRequest) => get<MyPetitionsResult>(`/api/me/petitions${toQueryString(query)}`),
    listNotifications: (query: FeedRequest = {}) => get<FeedPage>(`/api/me/notifications${toQueryString(query)}`),
    getUnreadNotificationCount: () => get<UnreadCount>('/api/me/notifications/unread-count'),
    markNotificationRead: (eventId: number) => request<UnreadCount>('POST', `/api/me/notifications/${id(eventId)}/read`),
    markAllNotificationsRead: (body: MarkAllReadRequest = {}) => request<UnreadCount>('POST', '/api/me/notifications/read-all', body),
    getNotificationPreferences: () => get<FeedPreferences>('/api/me/notification-preferences'),
    updateNotificationPreferences: (body: FeedPreferencesPatch) =>
      request<FeedPreferences>('PATCH', '/api/me/notification-preferences', body),
    listMutedPetitions: () => get<MutedPetitions>('/api/me/muted-petitions'),
    mutePetition: (petitionId: number) => request<MuteState>('PUT', `/api/me/muted-petitions/${id(petitionId)}`),
    unmutePetition: (petitionId: number) => request<MuteState>('DELETE', `/api/me/muted-petitions/${id(petitionId)}`),
    /** Staff: how many signers an event of this topic would notify now ("This will notify 1,234 signers"). */
    getNotificationAudience: (petitionId: number, topic: FeedTopic) =>
      get<NotificationAudience>(`/api/petitions/${id(petitionId)}/notification-audience${toQueryString({ topic })}`),

    // web push (docs/notifications.md#web-push): the site's key, and only ever the signed-in member's devices
    getPushConfig: () => get<PushConfig>('/api/push/config'),
    listPushSubscriptions: () => get<PushDevices>('/api/me/push-subscriptions'),
    savePushSubscription: (subscription: PushSubscriptionRequest) => request<PushDevice>('POST', '/api/me/push-subscriptions', subscription),
    deletePushSubscription: (deviceId: number) =>
      request<{ id: number; removed: true }>('DELETE', `/api/me/push-subscriptions/${id(deviceId)}`),

    // bans
    getBanStats: () => get<BanStats>('/api/ban-stats'),
    listBans: () => get<Ban[]>('/api/bans'),
    banUser: (userId: string, reason: string, write?: StaffWriteOptions) =>
      request<Ban>('PUT', `/api/bans/${id(userId)}`, { reason }, write),
    unbanUser: (userId: string, write?: StaffWriteOptions) =>
      request<{ message: string }>('DELETE', `/api/bans/${id(userId)}`, undefined, write),

    // signature integrity (administrator; docs/integrity.md)
    getUnusualSigning: () => get<UnusualSigning>('/api/integrity/unusual-signing'),
    /** Changes nothing: how many signatures the criteria match, and a sample. */
    previewInvalidation: (criteria: InvalidationCriteriaInput) =>
      get<InvalidationPreview>(`/api/integrity/invalidations/preview${toQueryString(previewQuery(criteria))}`),
    listInvalidations: () => get<{ items: InvalidationJob[] }>('/api/integrity/invalidations'),
    getInvalidation: (jobId: number) => get<InvalidationJob>(`/api/integrity/invalidations/${id(jobId)}`),
    requestInvalidation: (body: InvalidationRequest, write?: StaffWriteOptions) =>
      request<InvalidationJob>('POST', '/api/integrity/invalidations', body, write),
    cancelInvalidation: (jobId: number, write?: StaffWriteOptions) =>
      request<InvalidationJob>('POST', `/api/integrity/invalidations/${id(jobId)}/cancel`, {}, write),
    restoreInvalidation: (jobId: number, body: RestoreRequest, write?: StaffWriteOptions) =>
      request<InvalidationJob>('POST', `/api/integrity/invalidations/${id(jobId)}/restore`, body, write),

    // auth
    startSignIn: (query: { returnTo?: string } = {}) =>
      get<{ auth_url: string }>(`/api/auth/roblox/login${toQueryString(query)}`),
    finishSignIn: (code: string, state: string) =>
      request<{ id: string; returnTo?: string | null }>('POST', '/api/auth/roblox/callback', { code, state }),
    getSession: () => get<Session>('/api/auth/session'),
    getSignedInUser: (userId: string) => get<User>(`/api/auth/roblox/user/${id(userId)}`),
    signOut: (userId: string) => request<{ message: string }>('POST', `/api/auth/roblox/logout/${id(userId)}`),

    // your data (docs/privacy.md#deleting-your-data)
    deleteMyData: (confirmation: string) => request<AccountDeletionResult>('POST', '/api/me/deletion', { confirmation }),
    getRetention: () => get<Retention>('/api/privacy/retention'),
    deleteMemberData: (userId: string, confirmation: string) =>
      request<AccountDeletionResult>('POST', `/api/users/${id(userId)}/deletion`, { confirmation }),

    // working as a team (docs/console-team.md)
    getStaffPresence: () => get<PresenceList>('/api/staff/presence'),
    setStaffPresence: (clientId: string, body: SetPresenceRequest) =>
      request<PresenceList>('PUT', `/api/staff/presence/${id(clientId)}`, body),
    clearStaffPresence: (clientId: string) => request<PresenceList>('DELETE', `/api/staff/presence/${id(clientId)}`),
    getQueueSummary: () => get<QueueSummary>('/api/staff/queue-summary'),
    getStatistics: (query: { term?: number } = {}) => get<Statistics>(`/api/statistics${toQueryString(query)}`),
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
