/**
 * Petition status override (§4: the administrator may set any status). The petition is picked
 * from a searchable list; the change carries the version it was listed with.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { PETITION_STATUSES } from '../../../src-shared/domain/constants.ts';
import type { PetitionStatus } from '../../../src-shared/domain/constants.ts';
import { VALIDATION } from '../../../src-shared/domain/messages.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { Field } from '../../components/Field.tsx';
import { api } from '../../services/api.ts';
import { isQueued, queuedOutcome, useStaffWrites } from '../lib/staffWrites.tsx';
import { announcePetitionsUpdated } from '../../stores/index.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { statusFailure, success } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { usePetitionSearch } from '../lib/usePetitionSearch.ts';
import { useStaffForm } from '../lib/useStaffForm.ts';
import { truncate } from '../../components/format.ts';

export function StatusOverride() {
  const [search, setSearch] = useState('');
  const [petitionId, setPetitionId] = useState('');
  const [status, setStatus] = useState('');
  const form = useStaffForm<string | null>('status-override', null);
  const writes = useStaffWrites();
  const { errors: error, attempt, busy, outcome, setOutcome, slot } = form;
  const petitions = usePetitionSearch(search);
  const items = petitions.data?.items ?? [];
  const chosen = items.find((p) => String(p.id) === petitionId) ?? null;

  const submit = (event: FormEvent) =>
    form.submit(
      event,
      !chosen || !status ? VALIDATION.statusNeedsPetitionAndStatus : null,
      async () => {
        if (!chosen) return; // unreachable: refused above; this narrows the type
        const next = status as PetitionStatus;
        const updated = await writes.perform(
          { kind: 'petition.setStatus', petitionId: chosen.id, baseVersion: chosen.version, status: next },
          () => api.setPetitionStatus(chosen.id, next, { ifMatch: chosen.version }),
        );
        if (isQueued(updated)) {
          setOutcome(queuedOutcome(updated));
          return;
        }
        setOutcome(success(`Status of "${truncate(updated.title, 80)}" set to ${statusLabel(updated.status)}.`));
        announcePetitionsUpdated();
      },
      statusFailure,
    );

  return (
    <section className="staff-danger__item" aria-labelledby="status-override-heading">
      <h3 className="heading-s" id="status-override-heading">
        Petition Status Override
      </h3>
      {slot.visible && error ? (
        <ErrorSummary
          errors={[{ fieldId: chosen ? 'override-status' : 'override-petition', message: error }]}
          focusKey={attempt}
        />
      ) : null}
      <OutcomeNotice
        outcome={outcome}
        onDismiss={() => setOutcome(null)}
        onReload={() => {
          setOutcome(null);
          petitions.reload();
        }}
        reloadLabel={STAFF_TEXTS.reloadList}
      />
      <form className="staff-form" onSubmit={submit} noValidate aria-labelledby="status-override-heading">
        <Field id="override-search" label="Find a petition" hint="Type part of the title to narrow the list">
          {(a11y) => (
            <input
              id="override-search"
              className="input"
              type="search"
              autoComplete="off"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              {...a11y}
            />
          )}
        </Field>
        <Field id="override-petition" label="Petition" error={error && !chosen ? error : null}>
          {(a11y) => (
            <select
              id="override-petition"
              className="select select--wide"
              required
              value={chosen ? petitionId : ''}
              onChange={(e) => setPetitionId(e.target.value)}
              {...a11y}
            >
              <option value="">
                {petitions.status === 'loading' && items.length === 0 ? 'Loading petitions...' : 'Select a petition'}
              </option>
              {items.map((p) => (
                <option key={p.id} value={p.id}>
                  {truncate(p.title, 80)} ({statusLabel(p.status)})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="override-status" label="New status" error={error && chosen && !status ? error : null}>
          {(a11y) => (
            <select
              id="override-status"
              className="select"
              required
              value={status}
              onChange={(e) => setStatus(e.target.value)}
              {...a11y}
            >
              <option value="">Select a status</option>
              {PETITION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {statusLabel(s)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <div className="staff-actions">
          <button type="submit" className="button button--warning" disabled={busy} aria-busy={busy || undefined}>
            Update Status
          </button>
        </div>
      </form>
    </section>
  );
}
