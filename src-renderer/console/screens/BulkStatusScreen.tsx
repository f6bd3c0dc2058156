/**
 * Bulk status override (administrator): choose petitions by search, filters or checkboxes
 * ("select all matching"), pick a status, see how many change, apply. Each petition becomes its own
 * outbox row (one batch), based on the version listed here; results are shown per petition and the
 * failures can be tried again once resolved.
 */
import { BulkResults } from './BulkResults.tsx';
import { useEffect, useMemo, useState } from 'react';
import type { PetitionStatus } from '../../../src-shared/domain/constants.ts';
import type { Petition, Term } from '../../../src-shared/domain/schemas.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import { PetitionStatusOptions, StatusFilterOptions, TagOptions, TermOptions } from '../../components/PetitionOptions.tsx';
import { ConsoleFilter } from '../components/ConsoleFilter.tsx';
import { errorMessage } from '../consoleApi.ts';
import { dataAge } from '../format.ts';
import { bulkActions, bulkPreview, bulkResult, countResults, RETRYABLE_RESULTS } from '../bulk.ts';
import { latestEntryFor } from '../queues.ts';
import { useStores } from '../state/context.tsx';
import { readAllPetitions } from '../state/cachedReads.ts';
import type { Loaded } from '../state/cachedReads.ts';
import { resubmission } from '../outboxView.ts';

interface Batch {
  petitions: Petition[];
  status: PetitionStatus;
  /** Outbox sequence of the batch's first row: later rows for the same petition are its retries. */
  fromSeq: number;
}


const NO_TERMS: Term[] = [];
export function BulkStatusScreen() {
  const stores = useStores();
  const { api, outbox, toasts, data } = stores;
  const terms = data((s) => s.terms.data) ?? NO_TERMS;
  const [search, setSearch] = useState('');
  const [statusFilter, setStatusFilter] = useState('all');
  const [tag, setTag] = useState('');
  const [term, setTerm] = useState('');
  const [list, setList] = useState<Loaded<Petition[]>>({ data: null, fetchedAt: null, fromCache: false, status: 'idle', error: null });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [status, setStatus] = useState<PetitionStatus | ''>('');
  const [batch, setBatch] = useState<Batch | null>(null);
  const [busy, setBusy] = useState(false);
  const entries = outbox((s) => s.entries);

  const load = async () => {
    setList((l) => ({ ...l, status: 'loading' }));
    try {
      const query: Record<string, string> = { sort: 'newest', status: statusFilter };
      if (search.trim()) query.search = search.trim();
      if (tag) query.tag = tag;
      if (term) query.term = term;
      const read = await readAllPetitions(api, query, 20);
      setList({ ...read, status: 'ready', error: null });
    } catch (error) {
      setList((l) => ({ ...l, status: 'error', error: errorMessage(error) }));
    }
  };

  useEffect(() => {
    const timer = window.setTimeout(() => void load(), 250);
    return () => window.clearTimeout(timer);
  }, [search, statusFilter, tag, term]);

  const matching = list.data ?? [];
  const chosen = useMemo(() => matching.filter((p) => selected.has(p.id)), [matching, selected]);
  const preview = bulkPreview(chosen, status || null);
  const allChosen = matching.length > 0 && matching.every((p) => selected.has(p.id));

  const toggle = (id: number, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  };

  const apply = async () => {
    if (!status || chosen.length === 0) return;
    setBusy(true);
    try {
      const queued = await outbox.getState().enqueue(bulkActions(chosen, status), true);
      setBatch({ petitions: chosen, status, fromSeq: Math.min(...queued.map((e) => e.seq)) });
      toasts.getState().push('info', `Queued ${queued.length} status changes.`);
    } catch (error) {
      toasts.getState().push('error', `Could not queue the changes: ${errorMessage(error)}`);
    } finally {
      setBusy(false);
    }
  };

  const rows = batch
    ? batch.petitions.map((p) => {
        const entry = latestEntryFor(
          entries.filter((e) => e.seq >= batch.fromSeq),
          p.id,
        );
        return { petition: p, entry, result: entry ? bulkResult(entry, p.status) : ('queued' as const) };
      })
    : [];
  const counts = countResults(rows.map((r) => r.result));
  const failures = rows.filter((r) => r.entry && RETRYABLE_RESULTS.includes(r.result));

  const retryFailures = async () => {
    setBusy(true);
    try {
      for (const { entry } of failures) {
        if (!entry) continue;
        if (entry.state === 'conflict' && entry.serverPetition) {
          const again = resubmission(entry.action, entry.serverPetition);
          if (again) await outbox.getState().resubmit(entry.id, again);
        } else {
          await outbox.getState().retry(entry.id);
        }
      }
      toasts.getState().push('info', `Tried ${failures.length} failed changes again.`);
    } catch (error) {
      toasts.getState().push('error', errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="console-screen" aria-labelledby="bulk-title">
      <div className="console-screen__head">
        <h1 className="heading-l" id="bulk-title" tabIndex={-1}>
          Bulk status override
        </h1>
        <p className="console-age" data-testid="data-age">
          {list.status === 'loading' ? 'Loading… ' : ''}
          {dataAge(list.fetchedAt, list.fromCache) ?? ''}
        </p>
      </div>
      <form className="console-filters" role="search" aria-label="Choose petitions" onSubmit={(e) => e.preventDefault()}>
        <ConsoleFilter id="bulk-search" label="Search">
          <input id="bulk-search" className="input" type="search" value={search} onChange={(e) => setSearch(e.target.value)} />
        </ConsoleFilter>
        <ConsoleFilter id="bulk-filter" label="Petitions">
          <select id="bulk-filter" className="select" value={statusFilter} onChange={(e) => setStatusFilter(e.target.value)}>
            <StatusFilterOptions />
          </select>
        </ConsoleFilter>
        <ConsoleFilter id="bulk-tag" label="Tag">
          <select id="bulk-tag" className="select" value={tag} onChange={(e) => setTag(e.target.value)}>
            <TagOptions />
          </select>
        </ConsoleFilter>
        <ConsoleFilter id="bulk-term" label="Term">
          <select id="bulk-term" className="select" value={term} onChange={(e) => setTerm(e.target.value)}>
            <option value="">All terms</option>
            <TermOptions terms={terms} />
          </select>
        </ConsoleFilter>
      </form>
      {list.status === 'error' ? (
        <p className="console-error" role="alert">
          Could not read petitions: {list.error}
        </p>
      ) : null}

      <div className="console-bulk__bar">
        <button
          type="button"
          className="button button--secondary console-small"
          disabled={matching.length === 0}
          onClick={() => setSelected(allChosen ? new Set() : new Set(matching.map((p) => p.id)))}
        >
          {allChosen ? 'Clear selection' : `Select all ${matching.length} matching`}
        </button>
        <ConsoleFilter id="bulk-status" label="New status">
          <select id="bulk-status" className="select" value={status} onChange={(e) => setStatus(e.target.value as PetitionStatus | '')}>
            <PetitionStatusOptions />
          </select>
        </ConsoleFilter>
        <p className="console-bulk__preview" role="status" data-testid="bulk-preview">
          {preview.selected} selected
          {status ? ` · ${preview.willChange} will change to ${statusLabel(status)} · ${preview.unchanged} already have it` : ''}
        </p>
        <button
          type="button"
          className="button button--warning"
          disabled={busy || !status || chosen.length === 0}
          onClick={() => void apply()}
        >
          Apply to {chosen.length} {chosen.length === 1 ? 'petition' : 'petitions'}
        </button>
      </div>

      {batch ? (
        <BulkResults
          id="bulk-results-title"
          title={statusLabel(batch.status)}
          countsTestId="bulk-counts"
          counts={counts}
          rows={rows.map(({ petition, entry, result }) => ({
            petition,
            result,
            detail:
              entry?.state === 'conflict' && entry.serverPetition
                ? `Now ${statusLabel(entry.serverPetition.status)} (version ${entry.serverPetition.version})`
                : (entry?.lastError ?? ''),
          }))}
          failureCount={failures.length}
          busy={busy}
          onRetry={() => void retryFailures()}
        />
      ) : null}

      <table className="console-table console-bulk__table">
        <caption className="visually-hidden">Matching petitions</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Chosen</span>
            </th>
            <th scope="col">Petition</th>
            <th scope="col">Status</th>
            <th scope="col">Signatures</th>
          </tr>
        </thead>
        <tbody>
          {matching.map((p) => (
            <tr key={p.id}>
              <td>
                <input
                  type="checkbox"
                  id={`bulk-pick-${p.id}`}
                  checked={selected.has(p.id)}
                  onChange={(e) => toggle(p.id, e.target.checked)}
                />
              </td>
              <td>
                <label htmlFor={`bulk-pick-${p.id}`}>
                  #{p.id} {p.title}
                </label>
              </td>
              <td>{statusLabel(p.status)}</td>
              <td>{p.signatures}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
