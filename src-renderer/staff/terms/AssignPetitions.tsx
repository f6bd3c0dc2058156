/**
 * 'Assign Petitions': pick a term and one or more petitions from a searchable list, then
 * move them to the term. Each petition is changed with the version it was listed with.
 */
import { useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { Term } from '../../../src-shared/domain/schemas.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import { ErrorSummary } from '../../components/ErrorSummary.tsx';
import { Field } from '../../components/Field.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Notice } from '../../components/Notice.tsx';
import { isQueued, useStaffWrites } from '../lib/staffWrites.tsx';
import { announcePetitionsUpdated } from '../../stores/index.ts';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { isVersionConflict, plural } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { usePetitionSearch } from '../lib/usePetitionSearch.ts';
import { useStaffForm } from '../lib/useStaffForm.ts';
import { adminPreview, assignmentError, assignmentOutcome, toggleSelection } from './assign.ts';
import type { AssignmentResult } from './assign.ts';
import { sortTerms } from './termForm.ts';

export function AssignPetitions({ terms }: { terms: readonly Term[] }) {
  const [termId, setTermId] = useState<number | null>(null);
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const form = useStaffForm<string | null>('assign', null);
  const writes = useStaffWrites();
  const { errors: error, attempt, busy, outcome, setOutcome, slot } = form;
  const petitions = usePetitionSearch(search);
  const items = petitions.data?.items ?? [];
  const countId = useId();
  // The version each petition was listed with, kept when a new search hides a selected one.
  const listedVersions = useRef(new Map<number, number>());
  for (const p of items) listedVersions.current.set(p.id, p.version);

  const termNames = new Map(terms.map((t) => [t.id, t.name]));
  const firstCheckbox = items[0] ? `assign-petition-${items[0].id}` : 'assign-search';

  // Each petition reports its own failure, so there is no single failure to map.
  const submit = (event: FormEvent) =>
    form.submit(event, assignmentError(termId, selected), async () => {
      if (termId === null) return; // unreachable: refused above; this narrows the type
      const versions = listedVersions.current;
      const ids = [...selected];
      const results: Array<AssignmentResult & { queued?: boolean }> = await Promise.all(
        ids.map((id) =>
          writes
            .perform({ kind: 'petition.assignTerm', petitionId: id, baseVersion: versions.get(id) ?? 0, termId })
            .then(
              (done) => ({ id, ok: true, queued: isQueued(done) }),
              (err: unknown) => ({ id, ok: false, conflict: isVersionConflict(err) }),
            ),
        ),
      );
      const queued = results.filter((r) => r.queued).length;
      setOutcome(
        queued && queued === results.length
          ? {
              tone: 'success',
              text: `Queued: ${plural(queued, 'petition')} to assign to ${termNames.get(termId) ?? 'the term'}. The outbox sends them as soon as the console is online.`,
            }
          : assignmentOutcome(results, termNames.get(termId) ?? 'the term'),
      );
      // Keep the ones that failed selected, so "try again" is one click.
      setSelected(new Set(results.filter((r) => !r.ok).map((r) => r.id)));
      if (results.some((r) => r.ok)) announcePetitionsUpdated();
    });

  const termError = error && termId === null ? error : null;
  const petitionError = error && termId !== null ? error : null;

  return (
    <section className="staff-card" aria-labelledby="assign-heading">
      <h2 className="heading-m" id="assign-heading">
        Assign Petitions
      </h2>
      {slot.visible && error ? (
        <ErrorSummary
          errors={[{ fieldId: termId === null ? 'assign-term' : firstCheckbox, message: error }]}
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
      <form className="staff-form" onSubmit={submit} noValidate aria-labelledby="assign-heading">
        <Field id="assign-term" label="Parliamentary term" error={termError}>
          {(a11y) => (
            <select
              id="assign-term"
              className="select"
              required
              value={termId ?? ''}
              onChange={(e) => setTermId(e.target.value ? Number(e.target.value) : null)}
              {...a11y}
            >
              <option value="">Select a term</option>
              {sortTerms(terms).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field id="assign-search" label="Search petitions" hint="Search by title or description">
          {(a11y) => (
            <input
              id="assign-search"
              className="input"
              type="search"
              autoComplete="off"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              {...a11y}
            />
          )}
        </Field>
        <fieldset
          className={`form-group fieldset-plain${petitionError ? ' form-group--error' : ''}`}
          aria-describedby={countId}
        >
          <legend className="label">Petitions</legend>
          {petitionError ? (
            <p className="error-message">
              <span className="visually-hidden">Error:</span> {petitionError}
            </p>
          ) : null}
          <p className="hint" id={countId} role="status">
            {plural(selected.size, 'petition')} selected
            {petitions.data && petitions.data.total > items.length
              ? `. Showing the newest ${items.length} of ${petitions.data.total}: search to narrow the list.`
              : ''}
          </p>
          {petitions.status === 'loading' && items.length === 0 ? <Loading text="Loading petitions..." /> : null}
          {petitions.status === 'error' ? (
            <Notice tone="error">
              <p>{STAFF_TEXTS.petitionsLoadFailed}</p>
              <button type="button" className="button button--secondary" onClick={petitions.reload}>
                Try again
              </button>
            </Notice>
          ) : null}
          {petitions.status === 'ready' && items.length === 0 ? <p>No petitions match your search.</p> : null}
          {items.length > 0 ? (
            <>
              <div className="staff-actions staff-actions--compact">
                <button
                  type="button"
                  className="button button--secondary"
                  onClick={() => setSelected(new Set([...selected, ...items.map((p) => p.id)]))}
                >
                  Select all shown
                </button>
                <button type="button" className="button button--secondary" onClick={() => setSelected(new Set())}>
                  Clear selection
                </button>
              </div>
              <ul className="check-list">
                {items.map((p) => {
                  const id = `assign-petition-${p.id}`;
                  const term = p.termId === null ? 'No term' : (termNames.get(p.termId) ?? `Term ${p.termId}`);
                  return (
                    <li className="check-list__item" key={p.id}>
                      <input
                        type="checkbox"
                        id={id}
                        className="checkbox"
                        checked={selected.has(p.id)}
                        onChange={(e) => setSelected((s) => toggleSelection(s, p.id, e.target.checked))}
                        aria-describedby={`${id}-desc`}
                      />
                      <div className="check-list__text">
                        <label htmlFor={id} className="check-list__label">
                          {p.title}
                        </label>
                        <p className="check-list__desc" id={`${id}-desc`}>
                          {adminPreview(p.description)}
                          <span className="check-list__meta">
                            {' '}
                            {term} · {statusLabel(p.status)}
                          </span>
                        </p>
                      </div>
                    </li>
                  );
                })}
              </ul>
            </>
          ) : null}
        </fieldset>
        <div className="staff-actions">
          <button type="submit" className="button" disabled={busy} aria-busy={busy || undefined}>
            Assign Petitions
          </button>
        </div>
      </form>
    </section>
  );
}
