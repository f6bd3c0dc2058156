/**
 * The audit trail's actions: the names the server writes in `audit_log.action` and the labels the
 * staff screens show for them. Typed, so an action the server can write without a label does not
 * compile.
 */
export const AUDIT_ACTIONS = {
  termCreate: 'term.create',
  termUpdate: 'term.update',
  termDelete: 'term.delete',
  termClosePetitions: 'term.close_petitions',
  termReopenPetitions: 'term.reopen_petitions',
  petitionAssignTerm: 'petition.assign_term',
  petitionStatus: 'petition.set_status',
  petitionDelete: 'petition.delete',
  petitionDeleteAll: 'petition.delete_all',
  responseAdd: 'government_response.add',
  responseEdit: 'government_response.edit',
  responseRemove: 'government_response.remove',
  debateAdd: 'debate.add',
  debateEdit: 'debate.edit',
  debateRemove: 'debate.remove',
  maintenance: 'site.maintenance',
  ban: 'ban.create',
  banUpdate: 'ban.update',
  unban: 'ban.remove',
  notificationSend: 'notification.send',
  moderationKeep: 'moderation.keep',
  moderationHide: 'moderation.hide',
  moderationReject: 'moderation.reject',
  moderationRestore: 'moderation.restore',
  rejectionReasonCreate: 'rejection_reason.create',
  rejectionReasonUpdate: 'rejection_reason.update',
  rejectionReasonDelete: 'rejection_reason.delete',
  // Signature integrity (docs/integrity.md#audit): requests by staff, and each step the runner takes for them.
  invalidationRequest: 'signatures.invalidate',
  invalidationCancel: 'signatures.invalidation_cancel',
  restoreRequest: 'signatures.restore',
  jobStarted: 'signatures.job_started',
  jobResumed: 'signatures.job_resumed',
  jobFinished: 'signatures.job_finished',
  jobCancelled: 'signatures.job_cancelled',
  // docs/privacy.md#deleting-your-data: recorded without the member's id or name.
  accountDelete: 'account.delete',
} as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[keyof typeof AUDIT_ACTIONS];

export const AUDIT_ACTION_LABELS: Readonly<Record<AuditAction, string>> = {
  'term.create': 'Term created',
  'term.update': 'Term updated',
  'term.delete': 'Term deleted',
  'term.close_petitions': "Term's petitions closed",
  'term.reopen_petitions': "Term's petitions reopened",
  'petition.assign_term': 'Petition assigned to a term',
  'petition.set_status': 'Petition status changed',
  'petition.delete': 'Petition deleted',
  'petition.delete_all': 'All petitions deleted',
  'government_response.add': 'Government response added',
  'government_response.edit': 'Government response edited',
  'government_response.remove': 'Government response removed',
  'debate.add': 'Debate information added',
  'debate.edit': 'Debate information edited',
  'debate.remove': 'Debate information removed',
  'site.maintenance': 'Maintenance mode changed',
  'ban.create': 'User banned',
  'ban.update': 'Ban updated',
  'ban.remove': 'User unbanned',
  'notification.send': 'Notification sent',
  'moderation.keep': 'Petition kept after reports',
  'moderation.hide': 'Petition hidden by a moderator',
  'moderation.reject': 'Petition rejected',
  'moderation.restore': 'Petition restored',
  'rejection_reason.create': 'Rejection reason added',
  'rejection_reason.update': 'Rejection reason edited',
  'rejection_reason.delete': 'Rejection reason deleted',
  'signatures.invalidate': 'Signature invalidation requested',
  'signatures.invalidation_cancel': 'Signature invalidation cancelled',
  'signatures.restore': 'Restore of invalidated signatures requested',
  'signatures.job_started': 'Signature job started',
  'signatures.job_resumed': 'Signature job resumed on another node',
  'signatures.job_finished': 'Signature job finished',
  'signatures.job_cancelled': 'Signature job stopped after cancelling',
  'account.delete': "A member's data deleted",
};

/** True for the actions this version writes; an entry read from the API may carry an older or newer one. */
export function isAuditAction(action: string): action is AuditAction {
  return Object.hasOwn(AUDIT_ACTION_LABELS, action);
}
