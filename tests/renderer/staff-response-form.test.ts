import { describe, expect, it } from 'vitest';
import { VALIDATION } from '../../src-shared/domain/messages.ts';
import { governmentResponseErrors } from '../../src-shared/rules/validation.ts';
import {
  RESPONSE_FIELD_IDS,
  buildResponseRequest,
  initialResponseDraft,
  responseSummary,
} from '../../src-renderer/staff/panel/responseForm.ts';

const user = { id: '2006', username: 'DevMinister', displayName: 'Morgan Minister' };
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

  it('summarises both §5 messages in form order', () => {
    const errors = governmentResponseErrors({ response_text: '   ', added_by_role: '' });
    expect(responseSummary(errors)).toEqual([
      { fieldId: RESPONSE_FIELD_IDS.response_text, message: VALIDATION.responseRequired },
      { fieldId: RESPONSE_FIELD_IDS.added_by_role, message: VALIDATION.responseRoleRequired },
    ]);
  });
});
