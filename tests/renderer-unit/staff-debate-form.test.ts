import { describe, expect, it } from 'vitest';
import { DEBATE_STATUSES, DEFAULT_DEBATE_LOCATION } from '../../src-shared/domain/constants.ts';
import { SUCCESS, VALIDATION } from '../../src-shared/domain/messages.ts';
import { debateBoxText } from '../../src-shared/rules/classification.ts';
import { debateSubmissionErrors } from '../../src-shared/rules/validation.ts';
import {
  DEBATE_FIELD_IDS,
  buildDebateRequest,
  debateFields,
  debateFormTitle,
  debateSubmitLabel,
  debateSuccessText,
  debateSummary,
  debateValidationInput,
  initialDebateDraft,
} from '../../src-renderer/staff/panel/debateForm.ts';
import type { DebateFormDraft } from '../../src-renderer/staff/panel/debateForm.ts';

const draft = (over: Partial<DebateFormDraft> = {}): DebateFormDraft => ({ ...initialDebateDraft(null), ...over });
const leader = { userType: 'Government Official' };

describe('debate form', () => {
  it('defaults to scheduled in Westminster Hall', () => {
    expect(initialDebateDraft(null)).toEqual({
      status: 'scheduled',
      date: '',
      location: DEFAULT_DEBATE_LOCATION,
      hansardUrl: '',
      reason: '',
    });
  });

  it('prefills from existing debate info', () => {
    expect(
      initialDebateDraft({
        status: 'debated',
        date: '2026-03-01',
        location: 'Chamber',
        hansardLink: 'https://hansard.example/1',
        notDebatedReason: null,
      }),
    ).toEqual({ status: 'debated', date: '2026-03-01', location: 'Chamber', hansardUrl: 'https://hansard.example/1', reason: '' });
  });

  it('titles the form by whether debate info exists', () => {
    expect(debateFormTitle(false)).toBe('Add Parliament Debate');
    expect(debateFormTitle(true)).toBe('Update Parliament Debate');
  });

  it('labels the submit button per status', () => {
    expect(DEBATE_STATUSES.map(debateSubmitLabel)).toEqual([
      'Schedule Debate',
      'Record Completion',
      'Cancel Debate',
      'Record Decision',
    ]);
  });

  it('uses the spec success texts for scheduled and debated', () => {
    expect(debateSuccessText('scheduled')).toBe(SUCCESS.debateScheduled);
    expect(debateSuccessText('debated')).toBe(SUCCESS.debateCompleted);
    expect(debateSuccessText('cancelled')).toMatch(/successfully!$/);
    expect(debateSuccessText('not_debated')).toMatch(/successfully!$/);
  });

  it('shows the Hansard link only for debated and the reason for not_debated and cancelled', () => {
    expect(DEBATE_STATUSES.filter((s) => debateFields(s).hansard)).toEqual(['debated']);
    expect(DEBATE_STATUSES.filter((s) => debateFields(s).reason)).toEqual(['cancelled', 'not_debated']);
    expect(DEBATE_STATUSES.filter((s) => debateFields(s).dateRequired)).toEqual(['scheduled', 'debated']);
    expect(debateFields('cancelled').reasonLabel).toBe('Reason for cancelling the debate');
    expect(debateFields('not_debated').reasonLabel).toBe('Reason for not debating this petition');
  });

  it('gives every validation message of docs/rules.md#debate-information for the status it belongs to', () => {
    const errors = (d: DebateFormDraft) => debateSubmissionErrors(debateValidationInput(d));
    expect(errors(draft({ status: 'scheduled' }))).toEqual({ date: VALIDATION.debateDateRequired });
    expect(errors(draft({ status: 'debated', date: '2026-01-02' }))).toEqual({ hansard_url: VALIDATION.hansardRequired });
    expect(errors(draft({ status: 'not_debated' }))).toEqual({ not_debated_reason: VALIDATION.notDebatedReasonRequired });
    expect(errors(draft({ status: 'cancelled' }))).toEqual({ not_debated_reason: VALIDATION.cancelledReasonRequired });
    expect(errors(draft({ status: 'scheduled', date: '2026-01-02' }))).toEqual({});
  });

  it('ignores a hidden date for not_debated', () => {
    expect(debateValidationInput(draft({ status: 'not_debated', date: '2026-01-02' })).date).toBe('');
  });

  it('sends the Hansard link only for debated', () => {
    const base = { date: '2026-01-02', hansardUrl: 'https://hansard.example/x', reason: 'r' };
    expect(buildDebateRequest(draft({ ...base, status: 'debated' }), 7, leader).hansard_url).toBe('https://hansard.example/x');
    expect(buildDebateRequest(draft({ ...base, status: 'scheduled' }), 7, leader).hansard_url).toBeNull();
    expect(buildDebateRequest(draft({ ...base, status: 'cancelled' }), 7, leader).hansard_url).toBeNull();
  });

  it('sends the reason for not_debated and for cancelled, never for scheduled or debated', () => {
    const base = { date: '2026-01-02', hansardUrl: 'https://h.example/x', reason: '  Time ran out ' };
    expect(buildDebateRequest(draft({ ...base, status: 'cancelled' }), 7, leader).not_debated_reason).toBe('Time ran out');
    expect(buildDebateRequest(draft({ ...base, status: 'not_debated' }), 7, leader).not_debated_reason).toBe('Time ran out');
    expect(buildDebateRequest(draft({ ...base, status: 'scheduled' }), 7, leader).not_debated_reason).toBeNull();
    expect(buildDebateRequest(draft({ ...base, status: 'debated' }), 7, leader).not_debated_reason).toBeNull();
  });

  it('defaults an empty location and records the role', () => {
    const body = buildDebateRequest(draft({ date: '2026-01-02', location: '  ' }), 3, {});
    expect(body).toEqual({
      petition_id: 3,
      status: 'scheduled',
      date: '2026-01-02',
      location: DEFAULT_DEBATE_LOCATION,
      hansard_url: null,
      not_debated_reason: null,
      added_by_role: 'Government Official',
    });
    expect(buildDebateRequest(draft({ date: '2026-01-02' }), 3, { userType: 'System Administrator' }).added_by_role).toBe(
      'System Administrator',
    );
    // A signed-in user with ranks: the office the header shows, not 'Government Official'.
    const office = (rank: number) =>
      buildDebateRequest(draft({ date: '2026-01-02' }), 3, { rank, government_rank: rank, can_sign: true, userType: 'Government Official' }).added_by_role;
    expect([office(7), office(8)]).toEqual(['Leader of the House of Commons', 'Prime Minister']);
  });

  it('sends no date for not_debated and null for an empty optional date', () => {
    expect(buildDebateRequest(draft({ status: 'not_debated', date: '2026-01-02', reason: 'x' }), 1, leader).date).toBeNull();
    expect(buildDebateRequest(draft({ status: 'cancelled', reason: 'x' }), 1, leader).date).toBeNull();
  });

  it('orders summary errors as the form and links each to its control', () => {
    expect(
      debateSummary({ not_debated_reason: 'b', date: 'a' }),
    ).toEqual([
      { fieldId: DEBATE_FIELD_IDS.date, message: 'a' },
      { fieldId: DEBATE_FIELD_IDS.not_debated_reason, message: 'b' },
    ]);
  });
});

describe('the debate box after a cancellation', () => {
  it('shows the reason typed when cancelling', () => {
    expect(debateBoxText({ status: 'cancelled', date: '2026-12-10', notDebatedReason: 'Parliament was prorogued.' })).toBe(
      'The debate scheduled for 10 December 2026 has been cancelled: Parliament was prorogued.',
    );
    expect(debateBoxText({ status: 'cancelled', date: null, notDebatedReason: 'No time' })).toBe('The scheduled debate has been cancelled: No time');
    expect(debateBoxText({ status: 'cancelled', date: '2026-12-10', notDebatedReason: null })).toBe(
      'The debate scheduled for 10 December 2026 has been cancelled',
    );
  });
});
