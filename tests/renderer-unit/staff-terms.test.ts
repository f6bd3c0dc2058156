import { describe, expect, it } from 'vitest';
import { VALIDATION } from '../../src-shared/domain/messages.ts';
import { termFormErrors } from '../../src-shared/rules/validation.ts';
import type { Term } from '../../src-shared/domain/schemas.ts';
import {
  AUTOMATIC,
  deleteTermMessage,
  termChangeWarning,
  EMPTY_TERM_DRAFT,
  TERM_STATUS_OPTIONS,
  sortTerms,
  termDraftFromTerm,
  termErrorField,
  termRequestFromDraft,
  termView,
} from '../../src-renderer/staff/terms/termForm.ts';
import {
  adminPreview,
  assignmentError,
  assignmentOutcome,
  toggleSelection,
} from '../../src-renderer/staff/terms/assign.ts';

const term = (over: Partial<Term> = {}): Term => ({
  id: 1,
  name: 'Term 88',
  startDate: '2026-01-01',
  endDate: '2026-06-30',
  status: 'current',
  statusOverride: null,
  ...over,
});

describe('term form', () => {
  it('offers Upcoming first (the default), then Current, Completed and Automatic', () => {
    expect(TERM_STATUS_OPTIONS.map((o) => o.label)).toEqual(['Upcoming', 'Current', 'Completed', 'Automatic (from dates)']);
    expect(EMPTY_TERM_DRAFT.status).toBe('upcoming');
  });

  it('maps Automatic to a null status and trims the name', () => {
    expect(termRequestFromDraft({ name: ' Term 88 ', startDate: '2026-01-01', endDate: '2026-02-01', status: AUTOMATIC })).toEqual({
      name: 'Term 88',
      startDate: '2026-01-01',
      endDate: '2026-02-01',
      status: null,
    });
    expect(termRequestFromDraft({ ...EMPTY_TERM_DRAFT, name: 'x' }).status).toBe('upcoming');
  });

  it('edits a stored status as is and a null status as Automatic', () => {
    expect(termDraftFromTerm(term({ status: 'completed', statusOverride: 'completed' })).status).toBe('completed');
    // The API's `status` is the effective one; with no override the form offers Automatic.
    expect(termDraftFromTerm(term({ status: 'current', statusOverride: null })).status).toBe(AUTOMATIC);
    expect(termDraftFromTerm(term({ status: 'upcoming', statusOverride: 'current' })).status).toBe('current');
  });

  it('points the single message at the first missing field', () => {
    expect(termFormErrors(EMPTY_TERM_DRAFT)).toBe(VALIDATION.termFieldsRequired);
    expect(termErrorField(EMPTY_TERM_DRAFT)).toBe('name');
    expect(termErrorField({ name: 'a', startDate: '', endDate: '' })).toBe('startDate');
    expect(termErrorField({ name: 'a', startDate: '2026-01-01', endDate: '' })).toBe('endDate');
  });

  it('shows dates in en-GB long form and the effective status', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(termView(term(), now)).toMatchObject({
      dates: '1 January 2026 to 30 June 2026',
      status: 'current',
      statusLabel: 'Current (automatic)',
      automatic: true,
    });
    expect(termView(term({ status: 'completed', statusOverride: 'completed' }), now)).toMatchObject({ status: 'completed', statusLabel: 'Completed', automatic: false });
    expect(termView(term({ startDate: '2026-04-01' }), now).status).toBe('upcoming');
  });

  it('lists the newest terms first', () => {
    const list = sortTerms([term({ id: 1, startDate: '2025-01-01' }), term({ id: 2, startDate: '2026-01-01' })]);
    expect(list.map((t) => t.id)).toEqual([2, 1]);
  });
});

describe('assign petitions', () => {
  it('cuts descriptions at 150 characters with an ellipsis', () => {
    const long = 'a'.repeat(200);
    expect(adminPreview(long)).toBe(`${'a'.repeat(150)}...`);
    expect(adminPreview('short')).toBe('short');
  });

  it('needs a term and at least one petition', () => {
    expect(assignmentError(null, new Set([1]))).toBe(VALIDATION.assignNeedsTermAndPetition);
    expect(assignmentError(2, new Set())).toBe(VALIDATION.assignNeedsTermAndPetition);
    expect(assignmentError(2, new Set([1]))).toBeNull();
  });

  it('toggles selections without mutating', () => {
    const a = new Set([1]);
    const b = toggleSelection(a, 2, true);
    expect([...b]).toEqual([1, 2]);
    expect([...toggleSelection(b, 1, false)]).toEqual([2]);
    expect([...a]).toEqual([1]);
  });

  it('reports partial failures with their text', () => {
    const out = assignmentOutcome(
      [
        { id: 1, ok: true },
        { id: 2, ok: false },
        { id: 3, ok: false, conflict: true },
      ],
      'Term 88',
    );
    expect(out).toMatchObject({
      tone: 'error',
      text: 'Failed to update 2 petition(s). Please try again.',
      detail: '1 petition assigned to Term 88.',
      conflict: true,
    });
    expect(assignmentOutcome([{ id: 1, ok: true }, { id: 2, ok: true }], 'Term 88')).toEqual({
      tone: 'success',
      text: '2 petitions assigned to Term 88.',
    });
  });
});

describe('what a term edit or deletion does to its petitions', () => {
  it('warns before closing or reopening petitions, and says nothing when none change', () => {
    expect(termChangeWarning({ petitionsToClose: 31, petitionsToReopen: 0 })).toMatch(/^Completing this term will close 31 open petitions\. /);
    expect(termChangeWarning({ petitionsToClose: 1, petitionsToReopen: 0 })).toMatch(/^Completing this term will close 1 open petition\. /);
    expect(termChangeWarning({ petitionsToClose: 0, petitionsToReopen: 2 })).toBe(
      'Making this term current again will reopen 2 petitions that closed when it was completed.',
    );
    expect(termChangeWarning({ petitionsToClose: 0, petitionsToReopen: 0 })).toBeNull();
  });

  it('says how many petitions a deletion leaves without a term', () => {
    expect(deleteTermMessage('Term 87', 31)).toBe('Are you sure you want to delete Term 87? 31 petitions will be left without a term. This action cannot be undone.');
    expect(deleteTermMessage('Term 87', 0)).toBe('Are you sure you want to delete Term 87? It has no petitions. This action cannot be undone.');
    expect(deleteTermMessage('Term 87', null)).toMatch(/Checking its petitions/);
  });
});
