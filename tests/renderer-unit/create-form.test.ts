/** The create form's shown errors follow the draft: gone once a field is valid, never added while typing. */
import { describe, expect, it } from 'vitest';
import { VALIDATION } from '../../src-shared/domain/messages.ts';
import { revalidateShown } from '../../src-renderer/pages/create/createPetition.ts';

const valid = { title: 'Open the libraries', description: 'Libraries should open every day of the week for everyone.', tags: ['Budget'] };

describe('revalidateShown', () => {
  it('drops an error once its field is valid and keeps the others', () => {
    const shown = { tags: VALIDATION.tagsRequired, title: VALIDATION.titleRequired };
    expect(revalidateShown(shown, { ...valid, title: '' })).toEqual({ title: VALIDATION.titleRequired });
    expect(revalidateShown(shown, valid)).toEqual({});
  });

  it('adds no error for a field that shows none, and updates one that changed its problem', () => {
    expect(revalidateShown({}, { title: '', description: '', tags: [] })).toEqual({});
    expect(revalidateShown({ title: VALIDATION.titleRequired }, { ...valid, title: 'abc' })).toEqual({ title: VALIDATION.titleTooShort });
  });
});
