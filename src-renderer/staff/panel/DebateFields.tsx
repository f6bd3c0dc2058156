/**
 * The debate form's controls (docs/rules.md#debate-information), shared by the web staff panel and the
 * console: the status select and the fields that status shows, with their labels, hints and errors. The forms
 * around it decide what a submit does (a direct call on the web, an outbox action in the console).
 */
import type { RefObject } from 'react';
import { DEBATE_STATUSES } from '../../../src-shared/domain/constants.ts';
import type { DebateStatus } from '../../../src-shared/domain/constants.ts';
import { Field } from '../../components/Field.tsx';
import { DEBATE_FIELD_IDS, DEBATE_STATUS_LABELS, debateFields } from './debateForm.ts';
import type { DebateFormDraft, DebateErrors } from './debateForm.ts';

export type SetDebateField = <K extends keyof DebateFormDraft>(key: K, value: DebateFormDraft[K]) => void;

export function DebateFields({
  draft,
  errors,
  setField,
  onStatusChange,
  statusRef,
}: {
  draft: DebateFormDraft;
  errors: DebateErrors;
  setField: SetDebateField;
  /** Called before a new status is set: the errors of the old status's fields no longer apply. */
  onStatusChange: () => void;
  statusRef: RefObject<HTMLSelectElement | null>;
}) {
  const fields = debateFields(draft.status);
  return (
    <>
      <Field id={DEBATE_FIELD_IDS.status} label="Debate status">
        {(a11y) => (
          <select
            id={DEBATE_FIELD_IDS.status}
            ref={statusRef}
            className="select"
            value={draft.status}
            onChange={(e) => {
              onStatusChange();
              setField('status', e.target.value as DebateStatus);
            }}
            {...a11y}
          >
            {DEBATE_STATUSES.map((status) => (
              <option key={status} value={status}>
                {DEBATE_STATUS_LABELS[status]}
              </option>
            ))}
          </select>
        )}
      </Field>
      {fields.date ? (
        <Field
          id={DEBATE_FIELD_IDS.date}
          label={fields.dateRequired ? 'Debate date' : 'Date the debate was scheduled for (optional)'}
          error={errors.date}
        >
          {(a11y) => (
            <input
              id={DEBATE_FIELD_IDS.date}
              className="input input--date"
              type="date"
              required={fields.dateRequired}
              value={draft.date}
              onChange={(e) => setField('date', e.target.value)}
              {...a11y}
            />
          )}
        </Field>
      ) : null}
      {fields.location ? (
        <Field id={DEBATE_FIELD_IDS.location} label="Location" hint="Leave empty for Westminster Hall" error={errors.location}>
          {(a11y) => (
            <input
              id={DEBATE_FIELD_IDS.location}
              className="input"
              type="text"
              autoComplete="off"
              value={draft.location}
              onChange={(e) => setField('location', e.target.value)}
              {...a11y}
            />
          )}
        </Field>
      ) : null}
      {fields.hansard ? (
        <Field
          id={DEBATE_FIELD_IDS.hansard_url}
          label="Hansard link"
          hint="The https:// address of the debate transcript"
          error={errors.hansard_url}
        >
          {(a11y) => (
            <input
              id={DEBATE_FIELD_IDS.hansard_url}
              className="input"
              type="url"
              inputMode="url"
              required
              spellCheck={false}
              value={draft.hansardUrl}
              onChange={(e) => setField('hansardUrl', e.target.value)}
              {...a11y}
            />
          )}
        </Field>
      ) : null}
      {fields.reason ? (
        <Field id={DEBATE_FIELD_IDS.not_debated_reason} label={fields.reasonLabel} error={errors.not_debated_reason}>
          {(a11y) => (
            <textarea
              id={DEBATE_FIELD_IDS.not_debated_reason}
              className="textarea"
              rows={3}
              required
              value={draft.reason}
              onChange={(e) => setField('reason', e.target.value)}
              {...a11y}
            />
          )}
        </Field>
      ) : null}
    </>
  );
}
