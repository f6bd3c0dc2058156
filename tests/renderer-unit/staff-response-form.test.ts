import { describe, expect, it } from 'vitest';
import { VALIDATION } from '../../src-shared/domain/messages.ts';
import { governmentResponseErrors } from '../../src-shared/rules/validation.ts';
import {
  RESPONSE_FIELD_IDS,
  buildResponseRequest,
  initialResponseDraft,
  responseErrors,
  responseSummary,
} from '../../src-renderer/staff/panel/responseForm.ts';

const user = { id: '2006', username: 'DevMinister', displayName: 'Morgan Minister', rank: 6, government_rank: 6, can_sign: true };
const primeMinister = { ...user, id: '2008', username: 'DevPM', displayName: 'Pat Premier', rank: 8, government_rank: 8 };
const meta = (addedBy: string, addedByRole: string, editedBy: string | null = null, editedByRole: string | null = null) => ({
  addedBy,
  addedByRole,
  addedAt: '2026-01-01T10:00:00Z',
  editedBy,
  editedByRole,
  editedAt: editedBy ? '2026-01-02T10:00:00Z' : null,
});

describe('government response form', () => {
  it('starts empty without a response', () => {
    expect(initialResponseDraft({ governmentResponse: null, governmentResponseMeta: null }, user)).toEqual({ text: '', role: '' });
  });

  it('prefills the text, and the office only for the person who wrote it last', () => {
    const mine = { governmentResponse: 'We agree.', governmentResponseMeta: meta('DevMinister', 'Home Secretary') };
    expect(initialResponseDraft(mine, user)).toEqual({ text: 'We agree.', role: 'Home Secretary' });
    const theirs = { governmentResponse: 'We agree.', governmentResponseMeta: meta('DevMinister', 'Home Secretary', 'Someone', 'Attorney General') };
    expect(initialResponseDraft(theirs, user)).toEqual({ text: 'We agree.', role: '' });
  });

  it('starts from the office the member chose last, else the one their rank defines, never one they may not use', () => {
    const none = { governmentResponse: null, governmentResponseMeta: null };
    expect(initialResponseDraft(none, user, 'Attorney General').role).toBe('Attorney General');
    expect(initialResponseDraft(none, primeMinister).role).toBe('Prime Minister');
    expect(initialResponseDraft(none, primeMinister, 'Foreign Secretary').role).toBe('Foreign Secretary');
    expect(initialResponseDraft(none, user, 'Prime Minister').role).toBe('');
    // Their own earlier response under an office they no longer hold: not offered again.
    const formerPm = { governmentResponse: 'We agree.', governmentResponseMeta: meta('DevMinister', 'Prime Minister') };
    expect(initialResponseDraft(formerPm, user, 'Home Secretary').role).toBe('Home Secretary');
  });

  it('refuses, at the office field, an office tied to another rank', () => {
    expect(responseErrors({ text: 'Yes.', role: 'Prime Minister' }, user).added_by_role).toBe(
      'Only the Prime Minister (rank 8) or the System Administrator can respond as Prime Minister. Choose your own office.',
    );
    expect(responseErrors({ text: 'Yes.', role: 'Prime Minister' }, primeMinister)).toEqual({});
  });

  it('does not prefill a role that is not one of the offices', () => {
    const odd = { governmentResponse: 'x', governmentResponseMeta: meta('2006', 'Government Official') };
    expect(initialResponseDraft(odd, user).role).toBe('');
  });

  it('builds a trimmed request', () => {
    expect(buildResponseRequest({ text: '  Thank you.  ', role: 'Prime Minister' }, 4)).toEqual({
      petition_id: 4,
      response_text: 'Thank you.',
      added_by_role: 'Prime Minister',
    });
  });

  it('summarises both messages in form order', () => {
    const errors = governmentResponseErrors({ response_text: '   ', added_by_role: '' });
    expect(responseSummary(errors)).toEqual([
      { fieldId: RESPONSE_FIELD_IDS.response_text, message: VALIDATION.responseRequired },
      { fieldId: RESPONSE_FIELD_IDS.added_by_role, message: VALIDATION.responseRoleRequired },
    ]);
  });
});
