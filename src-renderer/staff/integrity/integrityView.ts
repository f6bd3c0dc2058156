/**
 * What the signature-integrity screens show (docs/integrity.md): the form's criteria as the API takes
 * them, and readable lines for jobs and figures. The server checks everything again.
 */
import type { InvalidationCriteriaInput, InvalidationJob, UnusualPetition } from '../../../src-shared/domain/integrity-schemas.ts';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';

export const INTEGRITY_TEXTS = {
  title: 'Signature integrity',
  unusualHeading: 'Unusual signing',
  unusualIntro:
    'Petitions with an alert today, then those signed most in the last hour. Figures count signatures a few seconds old and refresh by themselves.',
  unusualEmpty: 'No petition has been signed in the last hour, and none raised an alert today.',
  unusualFailed: 'The unusual-signing figures could not be loaded.',
  invalidateHeading: 'Invalidate signatures',
  invalidateIntro:
    'Choose the signatures, preview them, then confirm. Invalidated signatures stop counting at once and are kept: they can be restored.',
  previewOffline:
    'The preview needs the server, and it cannot be reached now. You can still queue the invalidation: it runs once the console is back online.',
  previewFailed: 'The preview could not be made.',
  invalidateFailed: 'The invalidation could not be requested.',
  jobsHeading: 'Invalidations and restores',
  jobsEmpty: 'No signatures have been invalidated.',
  jobsFailed: 'The invalidations could not be loaded.',
  reasonMissing: 'Give a reason for the invalidation',
  restoreReasonMissing: 'Give a reason for the restore',
} as const;

export interface CriteriaForm {
  petitionId: string;
  signedFrom: string;
  signedTo: string;
  youngerThanDays: string;
  userIds: string;
}

export const EMPTY_CRITERIA: CriteriaForm = { petitionId: '', signedFrom: '', signedTo: '', youngerThanDays: '', userIds: '' };

/** A datetime-local value (the staff member's own clock) as an instant; text that is not one is passed on for the server to refuse. */
function instant(value: string): string | null {
  if (!value.trim()) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** The form as the API's criteria; fields left empty are no criterion. */
export function criteriaFromForm(form: CriteriaForm): InvalidationCriteriaInput {
  const ids = form.userIds.split(/[\s,]+/).filter(Boolean);
  const days = form.youngerThanDays.trim();
  return {
    petitionId: form.petitionId.trim() ? form.petitionId.trim() : null,
    signedFrom: instant(form.signedFrom),
    signedTo: instant(form.signedTo),
    accountYoungerThanDays: days ? (/^\d+$/.test(days) ? Number(days) : Number.NaN) : null,
    userIds: ids.length ? ids : null,
  };
}

export function describeCriteria(criteria: InvalidationJob['criteria']): string {
  if (!criteria) return '';
  const parts = [criteria.petitionId === null ? 'every petition' : `petition #${criteria.petitionId}`];
  if (criteria.signedFrom) parts.push(`signed from ${formatDateTime(criteria.signedFrom)}`);
  if (criteria.signedTo) parts.push(`signed before ${formatDateTime(criteria.signedTo)}`);
  if (criteria.accountYoungerThanDays) parts.push(`accounts younger than ${criteria.accountYoungerThanDays} days`);
  if (criteria.userIds?.length) parts.push(`users ${criteria.userIds.join(', ')}`);
  return parts.join('; ');
}

const STATE_LABELS: Record<InvalidationJob['state'], string> = {
  queued: 'Waiting to start',
  running: 'Running',
  finished: 'Finished',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

export function jobTitle(job: InvalidationJob): string {
  return job.kind === 'restore' ? `Restore #${job.id} of invalidation #${job.restoresJobId ?? ''}` : `Invalidation #${job.id}`;
}

export function jobState(job: InvalidationJob): string {
  if (job.cancelRequested && (job.state === 'queued' || job.state === 'running')) return 'Stopping';
  if (job.kind === 'invalidate' && job.restoredByJobId !== null) return `${STATE_LABELS[job.state]}, restored by #${job.restoredByJobId}`;
  return STATE_LABELS[job.state];
}

export function jobProgress(job: InvalidationJob): string {
  const verb = job.kind === 'restore' ? 'restored' : 'invalidated';
  if (job.state === 'queued') return 'Not started';
  return `${job.processed.toLocaleString('en-GB')} of ${job.total.toLocaleString('en-GB')} signatures ${verb}, ${job.petitionsChanged} petition${job.petitionsChanged === 1 ? '' : 's'} changed`;
}


export function youngShare(petition: UnusualPetition): string {
  if (!petition.lastHour) return '–';
  return `${Math.round((100 * petition.youngLastHour) / petition.lastHour)}% (${petition.youngLastHour} of ${petition.lastHour})`;
}
