/**
 * The shared rules of community safety (src-shared/rules/moderation.ts, docs/moderation.md#decisions):
 * what each decision does in each state, the decisions offered, and the report form's checks, which
 * the server's schemas and the web dialog both use.
 */
import { describe, expect, it } from 'vitest';
import { REPORT_DETAILS_MAX } from '../../src-shared/domain/moderation-constants.ts';
import {
  MODERATION_ERRORS,
  availableDecisions,
  decisionOutcome,
  hideReasonError,
  rejectionCodeError,
  reportFormErrors,
  stateAfter,
  type DecisionRequest,
  type ModerationSubject,
} from '../../src-shared/rules/moderation.ts';
import { canManageRejectionReasons, canModerate, canReport } from '../../src-shared/rules/permissions.ts';

const visible: ModerationSubject = { state: null, openReports: 0 };
const reported: ModerationSubject = { state: null, openReports: 2 };
const hidden: ModerationSubject = { state: 'hidden', openReports: 3 };
const rejected: ModerationSubject = { state: 'rejected', openReports: 0, rejectionCode: 'spam' };
const KEEP: DecisionRequest = { decision: 'keep' };
const HIDE: DecisionRequest = { decision: 'hide', reason: 'Checking' };
const REJECT_SPAM: DecisionRequest = { decision: 'reject', reasonCode: 'spam' };
const REJECT_OTHER: DecisionRequest = { decision: 'reject', reasonCode: 'unclear' };
const RESTORE: DecisionRequest = { decision: 'restore' };

describe('decisionOutcome', () => {
  const TABLE: [string, ModerationSubject, [DecisionRequest, string][]][] = [
    ['visible', visible, [[KEEP, 'unchanged'], [HIDE, 'apply'], [REJECT_SPAM, 'apply'], [RESTORE, 'unchanged']]],
    ['reported', reported, [[KEEP, 'apply'], [HIDE, 'apply'], [REJECT_SPAM, 'apply'], [RESTORE, 'unchanged']]],
    ['hidden', hidden, [[KEEP, 'apply'], [HIDE, 'unchanged'], [REJECT_SPAM, 'apply'], [RESTORE, 'apply']]],
    ['rejected', rejected, [[KEEP, 'refused'], [HIDE, 'refused'], [REJECT_SPAM, 'unchanged'], [RESTORE, 'apply']]],
  ];
  it.each(TABLE)('for a %s petition', (_name, subject, cases) => {
    for (const [request, kind] of cases) expect(decisionOutcome(subject, request).kind, request.decision).toBe(kind);
  });

  it('lets a rejected petition take another reason, and says why keeping or hiding it is refused', () => {
    expect(decisionOutcome(rejected, REJECT_OTHER)).toEqual({ kind: 'apply' });
    expect(decisionOutcome(rejected, KEEP)).toEqual({ kind: 'refused', message: MODERATION_ERRORS.keepRejected });
    expect(decisionOutcome(rejected, HIDE)).toEqual({ kind: 'refused', message: MODERATION_ERRORS.hideRejected });
  });

  it('offers only decisions that apply, and says where each leads', () => {
    expect(availableDecisions(visible)).toEqual(['hide', 'reject']);
    expect(availableDecisions(reported)).toEqual(['keep', 'hide', 'reject']);
    expect(availableDecisions(hidden)).toEqual(['keep', 'reject', 'restore']);
    expect(availableDecisions(rejected)).toEqual(['reject', 'restore']);
    expect([stateAfter('keep'), stateAfter('hide'), stateAfter('reject'), stateAfter('restore')]).toEqual([null, 'hidden', 'rejected', null]);
  });
});

describe('the report form', () => {
  it('needs a reason, a duplicate target other than itself, and words for "other"', () => {
    expect(reportFormErrors({})).toEqual({ reason: MODERATION_ERRORS.reasonRequired });
    expect(reportFormErrors({ reason: 'spam' })).toEqual({});
    expect(reportFormErrors({ reason: 'duplicate' })).toEqual({ duplicateOf: MODERATION_ERRORS.duplicateRequired });
    expect(reportFormErrors({ reason: 'duplicate', duplicateOf: 7 }, 7)).toEqual({ duplicateOf: MODERATION_ERRORS.duplicateSelf });
    expect(reportFormErrors({ reason: 'other', details: '  ' })).toEqual({ details: MODERATION_ERRORS.otherDetailsRequired });
    expect(reportFormErrors({ reason: 'spam', details: 'x'.repeat(REPORT_DETAILS_MAX + 1) })).toEqual({ details: MODERATION_ERRORS.detailsTooLong });
    expect(reportFormErrors({ reason: 'other', details: 'a\u202eb' }).details).toBeDefined();
  });

  it('checks a hide reason and a rejection code', () => {
    expect(hideReasonError(' ')).toBe(MODERATION_ERRORS.hideReasonRequired);
    expect(hideReasonError('Checking a claim')).toBeNull();
    expect(rejectionCodeError('not_government')).toBeNull();
    for (const bad of ['a', 'Spam', '1spam', 'spam-x', 'x'.repeat(41)]) expect(rejectionCodeError(bad), bad).toBe(MODERATION_ERRORS.rejectionCodeFormat);
  });
});

describe('who may', () => {
  const user = (rank: number, governmentRank: number, canSign: boolean) => ({ rank, government_rank: governmentRank, can_sign: canSign });
  it('report (those who may sign), moderate (rank 7 up, the administrator), edit reasons (the administrator)', () => {
    expect([canReport(null), canReport(user(0, 0, false)), canReport(user(1, 0, true))]).toEqual([false, false, true]);
    expect([6, 7, 8].map((rank) => canModerate(user(rank, rank, true)))).toEqual([false, true, true]);
    expect([canModerate(user(9, 0, true)), canManageRejectionReasons(user(9, 0, true)), canManageRejectionReasons(user(8, 8, true))]).toEqual([true, true, false]);
  });
});
