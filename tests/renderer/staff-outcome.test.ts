import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../src-shared/api/client.ts';
import { ERRORS, VALIDATION } from '../../src-shared/domain/messages.ts';
import { DELETE_ALL_CONFIRMATION } from '../../src-shared/domain/constants.ts';
import { failure, partialFailureText, statusFailure, termFailure } from '../../src-renderer/staff/lib/outcome.ts';
import { banFormErrors, banStatsView } from '../../src-renderer/staff/dangerous/bans.ts';
import { deleteAllEnabled, deleteAllGuidance, maintenanceStateText } from '../../src-renderer/staff/dangerous/siteActions.ts';
import { actionLabel, auditLine } from '../../src-renderer/staff/audit/auditView.ts';

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

  it('formats status failures as §8 does', () => {
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

  it('renders audit entries readably', () => {
    expect(actionLabel('petition.set_status')).toBe('Petition status changed');
    expect(actionLabel('ban.remove')).toBe('User unbanned');
    expect(actionLabel('petition.some_new_thing')).toBe('Petition some new thing');
    expect(
      auditLine({
        id: 1,
        actor_id: '2000',
        actor_role: 'System Administrator',
        action: 'term.create',
        target_type: 'term',
        target_id: '5',
        before: null,
        after: null,
        at: '2026-01-05T09:30:00Z',
      }),
    ).toEqual({
      id: 1,
      when: '5 January 2026 at 09:30',
      who: '2000 (System Administrator)',
      what: 'Term created',
      target: 'term 5',
    });
  });
});
