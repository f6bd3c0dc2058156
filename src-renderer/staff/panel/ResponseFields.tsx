/**
 * The government-response form's controls (docs/rules.md#government-response), shared by the web staff panel
 * and the console: the response text and the ministerial office, with their labels and errors. Only the
 * offices this member may use are offered (docs/roles.md#offices-tied-to-a-rank). The forms around them
 * decide what a submit does.
 */
import type { RefObject } from 'react';
import { officesFor } from '../../../src-shared/rules/offices.ts';
import type { PermissionSubject } from '../../../src-shared/rules/permissions.ts';
import { Field } from '../../components/Field.tsx';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { RESPONSE_FIELD_IDS } from './responseForm.ts';
import type { ResponseDraft, ResponseErrors } from './responseForm.ts';

export function ResponseFields({
  user,
  draft,
  errors,
  onChange,
  textRows,
  textRef,
}: {
  /** The member filling the form: the offices offered are theirs. */
  user: PermissionSubject;
  draft: ResponseDraft;
  errors: ResponseErrors;
  onChange: (patch: Partial<ResponseDraft>) => void;
  /** The console gives the text more room: responding is its main task there. */
  textRows: number;
  textRef?: RefObject<HTMLTextAreaElement | null>;
}) {
  return (
    <>
      <Field id={RESPONSE_FIELD_IDS.response_text} label={STAFF_TEXTS.responseLabel} error={errors.response_text}>
        {(a11y) => (
          <textarea
            id={RESPONSE_FIELD_IDS.response_text}
            ref={textRef}
            className="textarea"
            rows={textRows}
            value={draft.text}
            onChange={(e) => onChange({ text: e.target.value })}
            {...a11y}
          />
        )}
      </Field>
      <Field id={RESPONSE_FIELD_IDS.added_by_role} label={STAFF_TEXTS.responseRoleLabel} error={errors.added_by_role}>
        {(a11y) => (
          <select
            id={RESPONSE_FIELD_IDS.added_by_role}
            className="select"
            required
            value={draft.role}
            onChange={(e) => onChange({ role: e.target.value })}
            {...a11y}
          >
            <option value="">{STAFF_TEXTS.responseRolePlaceholder}</option>
            {officesFor(user).map((office) => (
              <option key={office} value={office}>
                {office}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}
