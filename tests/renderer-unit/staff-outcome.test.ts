import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src-shared/api/client.ts';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import { DELETE_ALL_CONFIRMATION } from '../../src-shared/domain/constants.ts';
import { failure, partialFailureText, statusFailure, termFailure } from '../../src-renderer/staff/lib/outcome.ts';
import { banFormErrors, banStatsView } from '../../src-renderer/staff/dangerous/bans.ts';
import { deleteAllEnabled, deleteAllGuidance, maintenanceStateText } from '../../src-renderer/staff/dangerous/siteActions.ts';
import { actionLabel, auditFilterErrors, auditFilters, auditLine, EMPTY_AUDIT_FILTERS } from '../../src-renderer/staff/audit/auditView.ts';
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, isAuditAction } from '../../src-shared/domain/audit-actions.ts';

const apiError = (status: number, detail: string) => new ApiError(status, detail, null);

describe('staff outcomes', () => {
  it('shows the server reason for client errors and the fallback otherwise', () => {
    expect(failure(apiError(403, ERRORS.debateForbidden), 'Failed.')).toEqual({ tone: 'error', text: ERRORS.debateForbidden });
    expect(failure(apiError(500, 'Internal Server Error'), 'Failed.')).toEqual({ tone: 'error', text: 'Failed.' });
    expect(failure(new NetworkError(new Error('x')), 'Failed.')).toEqual({ tone: 'error', text: 'Failed.' });
  });

  it('marks a 412 as a conflict carrying the server explanation', () => {
    expect(failure(apiError(412, ERRORS.versionMismatch), 'Failed.')).toEqual({
      tone: 'error',
      text: ERRORS.versionMismatch,
      conflict: true,
    });
  });

  it('keeps the fixed term texts and adds the reason on a second line', () => {
    expect(termFailure('create', apiError(400, VALIDATION.termDatesOrder))).toEqual({
      tone: 'error',
      text: 'Failed to create parliamentary term. Please try again.',
      detail: VALIDATION.termDatesOrder,
    });
    expect(termFailure('delete', new Error('boom')).text).toBe('Failed to delete parliamentary term. Please try again.');
    expect(termFailure('update', new Error('boom')).text).toBe('Failed to update parliamentary term. Please try again.');
  });

  it('formats status failures', () => {
    expect(statusFailure(apiError(404, ERRORS.petitionNotFound)).text).toBe('Failed to update status: Petition not found');
    expect(statusFailure(new Error('offline')).text).toBe('Failed to update status: offline');
    expect(statusFailure(apiError(412, ERRORS.versionMismatch)).conflict).toBe(true);
  });

  it('counts failed petitions', () => {
    expect(partialFailureText(3)).toBe('Failed to update 3 petition(s). Please try again.');
  });
});

describe('dangerous actions', () => {
  it('needs a digit user id and a reason to ban', () => {
    expect(banFormErrors({ userId: 'abc', reason: '' })).toEqual({
      userId: 'Please enter a ROBLOX user id (digits only)',
      reason: VALIDATION.banReasonRequired,
    });
    expect(banFormErrors({ userId: ' 123 ', reason: 'Spam' })).toEqual({});
  });

  it('describes ban statistics', () => {
    expect(
      banStatsView({
        total_banned_users: 4,
        service_available: false,
        cache_info: { source: 'database', generated_at: '2026-01-05T09:30:00Z' },
        error: null,
      }),
    ).toEqual({ total: '4', service: 'Unavailable', source: 'Figures from database, 5 January 2026 at 09:30', error: null });
  });

  it('enables Delete All only for the exact phrase', () => {
    expect(deleteAllEnabled(DELETE_ALL_CONFIRMATION)).toBe(true);
    expect(deleteAllEnabled(DELETE_ALL_CONFIRMATION.toLowerCase())).toBe(false);
    expect(deleteAllEnabled(` ${DELETE_ALL_CONFIRMATION}`)).toBe(false);
    expect(deleteAllEnabled('')).toBe(false);
    // The line beside the disabled button says what to type and what is off.
    expect(deleteAllGuidance('')).toBe(`The button stays disabled until you type ${DELETE_ALL_CONFIRMATION} exactly. It is case-sensitive.`);
    expect(deleteAllGuidance('delete all petitions')).toBe(`Use capital letters: the phrase is case-sensitive (${DELETE_ALL_CONFIRMATION}).`);
    expect(deleteAllGuidance(`${DELETE_ALL_CONFIRMATION} `)).toBe('Remove the spaces before or after the phrase: it must match exactly.');
    expect(deleteAllGuidance('DELETE ALL')).toBe(`Keep typing: ${DELETE_ALL_CONFIRMATION}.`);
    expect(deleteAllGuidance('remove everything')).toMatch(/^That does not match/);
    expect(deleteAllGuidance(DELETE_ALL_CONFIRMATION)).toBe('The phrase matches: the button is enabled.');
  });

  it('states the maintenance mode', () => {
    expect(maintenanceStateText(true)).toContain(ERRORS.maintenance);
    expect(maintenanceStateText(false)).toMatch(/OFF/);
  });

  it('labels every audit action the server writes, each differently, and nothing else', () => {
    const written = Object.values(AUDIT_ACTIONS);
    expect(Object.keys(AUDIT_ACTION_LABELS).sort()).toEqual([...written].sort());
    for (const action of written) {
      expect(isAuditAction(action)).toBe(true);
      expect(actionLabel(action)).toBe(AUDIT_ACTION_LABELS[action]);
      expect(AUDIT_ACTION_LABELS[action]).toMatch(/^[A-Z].+[a-z]$/);
    }
    expect(new Set(Object.values(AUDIT_ACTION_LABELS)).size).toBe(written.length);
  });

  it('renders audit entries readably: names with roles, targets, made-at beside applied-at', () => {
    expect(actionLabel('petition.set_status')).toBe('Petition status changed');
    expect(actionLabel('ban.remove')).toBe('User unbanned');
    expect(actionLabel('petition.some_new_thing')).toBe('Petition some new thing');
    expect(actionLabel('toString')).toBe('ToString');
    const entry = {
      id: 1,
      actor_id: '2006',
      actor_name: 'Alex Minister',
      actor_role: 'Cabinet Minister',
      action: 'government_response.add',
      target_type: 'petition',
      target_id: '12',
      before: null,
      after: null,
      at: '2026-01-05T09:30:00Z',
      made_at: null,
    };
    expect(auditLine(entry)).toEqual({
      id: 1,
      what: 'Government response added',
      target: 'Petition #12',
      who: 'Alex Minister (Cabinet Minister)',
      applied: '5 January 2026 at 09:30',
      made: null,
    });
    expect(auditLine({ ...entry, made_at: '2026-01-05T08:05:00Z' }).made).toBe('5 January 2026 at 08:05');
    expect(auditLine({ ...entry, made_at: entry.at }).made).toBeNull();
    expect(auditLine({ ...entry, actor_name: null }).who).toBe('User 2006 (Cabinet Minister)');
    expect(auditLine({ ...entry, actor_id: 'system', actor_name: null, actor_role: 'System' }).who).toBe('The server (automatic)');
    expect(auditLine({ ...entry, target_type: 'term', target_id: '5' }).target).toBe('Term #5');
    expect(auditLine({ ...entry, target_type: 'petitions', target_id: null }).target).toBe('All petitions');
  });

  it('checks the audit filters as the server does and builds the query without empty fields', () => {
    const draft = { ...EMPTY_AUDIT_FILTERS, petition: '#12', from: '2026-05-01', to: '2026-05-03', actor: '2006' };
    expect(auditFilterErrors(draft)).toEqual({});
    expect(auditFilters(draft)).toEqual({ petition: 12, from: '2026-05-01', to: '2026-05-03', actor: '2006' });
    expect(auditFilters(EMPTY_AUDIT_FILTERS)).toEqual({});
    expect(auditFilterErrors({ ...draft, petition: 'twelve' }).petition).toBe('Enter a petition number, such as 12');
    expect(auditFilterErrors({ ...draft, petition: '0' }).petition).toBeDefined();
    expect(auditFilterErrors({ ...draft, from: '2026-05-04' }).to).toBe('The end date must not be before the start date');
  });
});
