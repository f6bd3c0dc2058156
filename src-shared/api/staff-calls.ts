/**
 * The staff's calls: terms, moderation, government responses and debates, bans, signature integrity
 * (docs/integrity.md), the audit log, presence (docs/console-team.md) and statistics. Named `api` + the operationId,
 * like every call (caller.ts).
 */
import { segment, toQueryString } from './caller.ts';
import type { ApiCaller, StaffWriteOptions } from './caller.ts';
import type { AuditLogActor, AuditLogPage, Ban, BanStats, DebateRequest, GovernmentResponseRequest, Petition, SiteStatus, Term, TermChangePreview, TermPatchRequest, TermRequest } from '../domain/schemas.ts';
import type { PetitionStatus } from '../domain/constants.ts';
import type { InvalidationCriteriaInput, InvalidationJob, InvalidationPreview, InvalidationRequest, RestoreRequest, UnusualSigning } from '../domain/integrity-schemas.ts';
import type { BulkStatusRequest, BulkStatusResponse, QueueChanges } from '../domain/sync-schemas.ts';
import type { AccountDeletionResult } from '../domain/privacy-schemas.ts';
import type { ModerationBulkRequest, ModerationBulkResponse, ModerationCase, ModerationDecisionRequest, ModerationQueue, RejectionReason, RejectionReasonRequest } from '../domain/moderation-schemas.ts';
import type { ModerationQueueView } from '../domain/moderation-constants.ts';
import type { NotificationAudience } from '../domain/feed-schemas.ts';
import type { FeedTopic } from '../domain/feed-constants.ts';
import type { PresenceList, QueueSummary, SetPresenceRequest, Statistics } from '../domain/team-schemas.ts';

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

export const apiSetMaintenance = (api: ApiCaller, maintenance: boolean, write?: StaffWriteOptions) =>
  api.request<SiteStatus>('PUT', '/api/site-status', { maintenance }, write);
export const apiListAuditLog = (api: ApiCaller, query: AuditLogQuery = {}) => api.request<AuditLogPage>('GET', `/api/audit-log${toQueryString({ ...query })}`);
export const apiListAuditLogActors = (api: ApiCaller) => api.request<{ items: AuditLogActor[] }>('GET', '/api/audit-log/actors');
/** `message` is a Discord webhook message (content and embeds); the server checks it against Discord's limits. */
export const apiQueueChatMessage = (api: ApiCaller, message: Record<string, unknown>, write?: StaffWriteOptions) =>
  api.request<{ message: string }>('POST', '/api/notifications/discord', message, write);
export const apiCreateTerm = (api: ApiCaller, body: TermRequest, write?: StaffWriteOptions) =>
  api.request<Term>('POST', '/api/parliamentary-terms', body, write);
export const apiUpdateTerm = (api: ApiCaller, termId: number, body: TermPatchRequest, write?: StaffWriteOptions) =>
  api.request<Term>('PATCH', `/api/parliamentary-terms/${segment(termId)}`, body, write);
export const apiDeleteTerm = (api: ApiCaller, termId: number, write?: StaffWriteOptions) =>
  api.request<{ message: string }>('DELETE', `/api/parliamentary-terms/${segment(termId)}`, undefined, write);
/** Changes nothing: what the PATCH would do to the term's petitions ({} for a deletion's count). */
export const apiPreviewTermChange = (api: ApiCaller, termId: number, body: TermPatchRequest) =>
  api.request<TermChangePreview>('POST', `/api/parliamentary-terms/${segment(termId)}/preview`, body);
export const apiAssignPetitionTerm = (api: ApiCaller, petitionId: number, termId: number | null, write?: StaffWriteOptions) =>
  api.request<Petition>('PATCH', `/api/petitions/${segment(petitionId)}`, { termId }, write);
export const apiSetPetitionStatus = (api: ApiCaller, petitionId: number, status: PetitionStatus, write?: StaffWriteOptions) =>
  api.request<Petition>('PATCH', `/api/petitions/${segment(petitionId)}/status`, { status }, write);
export const apiDeletePetition = (api: ApiCaller, petitionId: number, write?: StaffWriteOptions) =>
  api.request<{ message: string }>('DELETE', `/api/petitions/${segment(petitionId)}`, undefined, write);
export const apiDeleteAllPetitions = (api: ApiCaller, confirmation: string) =>
  api.request<{ deleted: number }>('POST', '/api/petitions/delete-all', { confirmation });
export const apiGetLastOffice = (api: ApiCaller) => api.request<{ office: string | null }>('GET', '/api/me/last-office');
export const apiSaveGovernmentResponse = (api: ApiCaller, petitionId: number, body: GovernmentResponseRequest, write?: StaffWriteOptions) =>
  api.request<Petition>('POST', `/api/petitions/${segment(petitionId)}/government-response`, body, write);
export const apiRemoveGovernmentResponse = (api: ApiCaller, petitionId: number, write?: StaffWriteOptions) =>
  api.request<Petition>('DELETE', `/api/petitions/${segment(petitionId)}/government-response`, undefined, write);
export const apiSaveDebateInfo = (api: ApiCaller, petitionId: number, body: DebateRequest, write?: StaffWriteOptions) =>
  api.request<Petition>('POST', `/api/petitions/${segment(petitionId)}/debate-info`, body, write);
export const apiRemoveDebateInfo = (api: ApiCaller, petitionId: number, write?: StaffWriteOptions) =>
  api.request<Petition>('DELETE', `/api/petitions/${segment(petitionId)}/debate-info`, undefined, write);
/** `write.madeAt` applies to every item (the keys are per item, in the body). */
export const apiSetPetitionStatuses = (api: ApiCaller, body: BulkStatusRequest, write: Pick<StaffWriteOptions, 'madeAt'> = {}) =>
  api.request<BulkStatusResponse>('POST', '/api/petitions/bulk-status', body, write);
export const apiGetQueueChanges = (api: ApiCaller, query: { since?: string; limit?: number } = {}) =>
  api.request<QueueChanges>('GET', `/api/petitions/queue-changes${toQueryString(query)}`);
export const apiListModerationQueue = (api: ApiCaller, query: { view?: ModerationQueueView; page?: number; pageSize?: number } = {}) =>
  api.request<ModerationQueue>('GET', `/api/moderation/queue${toQueryString(query)}`);
export const apiGetModerationCase = (api: ApiCaller, petitionId: number) => api.request<ModerationCase>('GET', `/api/moderation/petitions/${segment(petitionId)}`);
export const apiModeratePetition = (api: ApiCaller, petitionId: number, body: ModerationDecisionRequest, write?: StaffWriteOptions) =>
  api.request<Petition>('POST', `/api/petitions/${segment(petitionId)}/moderation`, body, write);
/** `write.madeAt` applies to every item (the keys are per item, in the body). */
export const apiModeratePetitions = (api: ApiCaller, body: ModerationBulkRequest, write: Pick<StaffWriteOptions, 'madeAt'> = {}) =>
  api.request<ModerationBulkResponse>('POST', '/api/petitions/bulk-moderation', body, write);
export const apiListRejectionReasons = (api: ApiCaller) => api.request<RejectionReason[]>('GET', '/api/rejection-reasons');
export const apiSaveRejectionReason = (api: ApiCaller, code: string, body: RejectionReasonRequest, write?: StaffWriteOptions) =>
  api.request<RejectionReason>('PUT', `/api/rejection-reasons/${segment(code)}`, body, write);
export const apiDeleteRejectionReason = (api: ApiCaller, code: string, write?: StaffWriteOptions) =>
  api.request<{ message: string }>('DELETE', `/api/rejection-reasons/${segment(code)}`, undefined, write);
/** Staff: how many signers an event of this topic would notify now ("This will notify 1,234 signers"). */
export const apiGetNotificationAudience = (api: ApiCaller, petitionId: number, topic: FeedTopic) =>
  api.request<NotificationAudience>('GET', `/api/petitions/${segment(petitionId)}/notification-audience${toQueryString({ topic })}`);
export const apiGetBanStats = (api: ApiCaller) => api.request<BanStats>('GET', '/api/ban-stats');
export const apiListBans = (api: ApiCaller) => api.request<Ban[]>('GET', '/api/bans');
export const apiBanUser = (api: ApiCaller, userId: string, reason: string, write?: StaffWriteOptions) =>
  api.request<Ban>('PUT', `/api/bans/${segment(userId)}`, { reason }, write);
export const apiUnbanUser = (api: ApiCaller, userId: string, write?: StaffWriteOptions) =>
  api.request<{ message: string }>('DELETE', `/api/bans/${segment(userId)}`, undefined, write);
export const apiGetUnusualSigning = (api: ApiCaller) => api.request<UnusualSigning>('GET', '/api/integrity/unusual-signing');
/** Changes nothing: how many signatures the criteria match, and a sample. */
export const apiPreviewInvalidation = (api: ApiCaller, criteria: InvalidationCriteriaInput) =>
  api.request<InvalidationPreview>('GET', `/api/integrity/invalidations/preview${toQueryString(previewQuery(criteria))}`);
export const apiListInvalidations = (api: ApiCaller) => api.request<{ items: InvalidationJob[] }>('GET', '/api/integrity/invalidations');
export const apiGetInvalidation = (api: ApiCaller, jobId: number) => api.request<InvalidationJob>('GET', `/api/integrity/invalidations/${segment(jobId)}`);
export const apiRequestInvalidation = (api: ApiCaller, body: InvalidationRequest, write?: StaffWriteOptions) =>
  api.request<InvalidationJob>('POST', '/api/integrity/invalidations', body, write);
export const apiCancelInvalidation = (api: ApiCaller, jobId: number, write?: StaffWriteOptions) =>
  api.request<InvalidationJob>('POST', `/api/integrity/invalidations/${segment(jobId)}/cancel`, {}, write);
export const apiRestoreInvalidation = (api: ApiCaller, jobId: number, body: RestoreRequest, write?: StaffWriteOptions) =>
  api.request<InvalidationJob>('POST', `/api/integrity/invalidations/${segment(jobId)}/restore`, body, write);
export const apiDeleteMemberData = (api: ApiCaller, userId: string, confirmation: string) =>
  api.request<AccountDeletionResult>('POST', `/api/users/${segment(userId)}/deletion`, { confirmation });
export const apiGetStaffPresence = (api: ApiCaller) => api.request<PresenceList>('GET', '/api/staff/presence');
export const apiSetStaffPresence = (api: ApiCaller, clientId: string, body: SetPresenceRequest) =>
  api.request<PresenceList>('PUT', `/api/staff/presence/${segment(clientId)}`, body);
export const apiClearStaffPresence = (api: ApiCaller, clientId: string) => api.request<PresenceList>('DELETE', `/api/staff/presence/${segment(clientId)}`);
export const apiGetQueueSummary = (api: ApiCaller) => api.request<QueueSummary>('GET', '/api/staff/queue-summary');
export const apiGetStatistics = (api: ApiCaller, query: { term?: number } = {}) => api.request<Statistics>('GET', `/api/statistics${toQueryString(query)}`);
