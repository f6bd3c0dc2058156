/** The parliamentary terms with their dates and effective status, edited inline or deleted. */
import { useEffect, useRef, useState } from 'react';
import type { Term, TermPatchRequest, TermRequest } from '../../../src-shared/domain/schemas.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Notice } from '../../components/Notice.tsx';
import { api } from '../../services/api.ts';
import { isQueued, queuedOutcome, useStaffWrites } from '../lib/staffWrites.tsx';
import { OutcomeNotice } from '../lib/OutcomeNotice.tsx';
import { success, termFailure } from '../lib/outcome.ts';
import type { Outcome } from '../lib/outcome.ts';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { TermForm } from './TermForm.tsx';
import { deleteTermMessage, sortTerms, termChangeWarning, termDraftFromTerm, termView } from './termForm.ts';

export function TermList({
  terms,
  loading,
  loadFailed,
  onRetry,
  onChanged,
}: {
  terms: readonly Term[];
  loading: boolean;
  loadFailed: boolean;
  onRetry: () => void;
  onChanged: () => void;
}) {
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<Term | null>(null);
  /** How many petitions the term being deleted has (null while the server is asked). */
  const [deletingCount, setDeletingCount] = useState<number | null>(null);
  /** An edit that closes or reopens petitions, waiting for the administrator's confirmation. */
  const [confirming, setConfirming] = useState<{ term: Term; request: TermRequest; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const writes = useStaffWrites();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  const editButtons = useRef(new Map<number, HTMLButtonElement>());
  const pendingFocus = useRef<{ kind: 'name' } | { kind: 'edit'; id: number } | { kind: 'outcome' } | null>(null);

  useEffect(() => {
    const target = pendingFocus.current;
    pendingFocus.current = null;
    if (!target) return;
    if (target.kind === 'name') nameRef.current?.focus();
    else if (target.kind === 'edit') editButtons.current.get(target.id)?.focus();
    else outcomeRef.current?.focus();
  });

  const startEdit = (term: Term) => {
    setOutcome(null);
    pendingFocus.current = { kind: 'name' };
    setEditing(term.id);
  };
  const stopEdit = (id: number) => {
    pendingFocus.current = { kind: 'edit', id };
    setEditing(null);
  };

  const commit = async (term: Term, request: TermRequest): Promise<boolean> => {
    setBusy(true);
    setOutcome(null);
    try {
      const done = await writes.perform({ kind: 'term.update', termId: term.id, body: request as TermPatchRequest });
      setOutcome(isQueued(done) ? queuedOutcome(done) : success(STAFF_TEXTS.termUpdated));
      stopEdit(term.id);
      onChanged();
      return true;
    } catch (error) {
      setOutcome(termFailure('update', error));
      return false;
    } finally {
      setBusy(false);
    }
  };

  /** Asks the server first what the edit does to the term's petitions; closing or reopening any needs a confirmation. */
  const save = async (term: Term, request: TermRequest): Promise<boolean> => {
    setBusy(true);
    setOutcome(null);
    let message: string | null;
    try {
      const preview = await api.previewTermChange(term.id, {
        name: request.name,
        startDate: request.startDate || undefined,
        endDate: request.endDate || undefined,
        status: request.status,
      });
      message = termChangeWarning(preview);
    } catch (error) {
      setOutcome(termFailure('update', error));
      setBusy(false);
      return false;
    }
    setBusy(false);
    if (message) {
      setConfirming({ term, request, message });
      return false;
    }
    return commit(term, request);
  };

  const askDelete = (term: Term) => {
    setDeleting(term);
    setDeletingCount(null);
    api
      .previewTermChange(term.id, {})
      .then((preview) => setDeletingCount(preview.petitionsInTerm))
      .catch(() => setDeletingCount(null));
  };

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    setOutcome(null);
    try {
      const id = deleting.id;
      const done = await writes.perform({ kind: 'term.delete', termId: id });
      pendingFocus.current = { kind: 'outcome' };
      setOutcome(isQueued(done) ? queuedOutcome(done) : success(STAFF_TEXTS.termDeleted));
      onChanged();
    } catch (error) {
      setOutcome(termFailure('delete', error));
    } finally {
      setDeleting(null);
      setBusy(false);
    }
  };

  const sorted = sortTerms(terms);
  return (
    <section className="staff-card" aria-labelledby="terms-heading">
      <h2 className="heading-m" id="terms-heading">
        Parliamentary Terms
      </h2>
      <OutcomeNotice outcome={outcome} focusRef={outcomeRef} onDismiss={() => setOutcome(null)} />
      {loading && terms.length === 0 ? <Loading text="Loading parliamentary terms..." /> : null}
      {loadFailed ? (
        <Notice tone="error">
          <p>{STAFF_TEXTS.termsLoadFailed}</p>
          <button type="button" className="button button--secondary" onClick={onRetry}>
            Try again
          </button>
        </Notice>
      ) : null}
      {!loading && !loadFailed && terms.length === 0 ? <p>No parliamentary terms yet. Create one below.</p> : null}
      {sorted.length > 0 ? (
        <ul className="term-list">
          {sorted.map((term) => {
            const view = termView(term);
            const headingId = `term-${term.id}-heading`;
            return (
              <li className="term-list__item" key={term.id}>
                {editing === term.id ? (
                  <>
                    <h3 className="heading-s" id={headingId}>
                      Edit {term.name}
                    </h3>
                    <TermForm
                      idPrefix={`term-${term.id}`}
                      initial={termDraftFromTerm(term)}
                      submitLabel="Save Changes"
                      busy={busy}
                      nameRef={nameRef}
                      labelledBy={headingId}
                      onSubmit={(request) => save(term, request)}
                      onCancel={() => stopEdit(term.id)}
                    />
                  </>
                ) : (
                  <>
                    <h3 className="heading-s term-list__name" id={headingId}>
                      {view.name}
                    </h3>
                    <p className="term-list__dates">{view.dates}</p>
                    <p>
                      <span className={`term-status term-status--${view.status}`}>{view.statusLabel}</span>
                    </p>
                    <div className="staff-actions">
                      <button
                        type="button"
                        className="button button--secondary"
                        ref={(el) => {
                          if (el) editButtons.current.set(term.id, el);
                          else editButtons.current.delete(term.id);
                        }}
                        onClick={() => startEdit(term)}
                      >
                        Edit<span className="visually-hidden"> {term.name}</span>
                      </button>
                      <button
                        type="button"
                        className="button button--warning"
                        disabled={busy}
                        onClick={() => askDelete(term)}
                      >
                        Delete<span className="visually-hidden"> {term.name}</span>
                      </button>
                    </div>
                  </>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
      <ConfirmDialog
        open={deleting !== null}
        title={STAFF_TEXTS.termDeleteTitle}
        message={deleteTermMessage(deleting?.name ?? 'this term', deletingCount)}
        confirmLabel="Delete Term"
        danger
        busy={busy}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(null)}
      />
      <ConfirmDialog
        open={confirming !== null}
        title={STAFF_TEXTS.termChangeTitle}
        message={confirming?.message ?? ''}
        confirmLabel="Save Changes"
        danger
        busy={busy}
        onConfirm={() => {
          const pending = confirming;
          setConfirming(null);
          if (pending) void commit(pending.term, pending.request);
        }}
        onCancel={() => setConfirming(null)}
      />
    </section>
  );
}
