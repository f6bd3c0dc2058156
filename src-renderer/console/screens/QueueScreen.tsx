/**
 * A queue of petitions awaiting a government response or a debate: filters, search, order, and a
 * list worked from the keyboard (↑/↓ or j/k, Enter opens, r responds, d debates). Focus comes back
 * to the petition the user was on.
 */
import { useEffect, useRef } from 'react';
import type { KeyboardEvent } from 'react';
import type { Petition, Term } from '../../../src-shared/domain/schemas.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import { canManageDebate, canManageGovernmentResponse } from '../../../src-shared/rules/permissions.ts';
import { signaturesText } from '../../components/format.ts';
import { TagOptions, TermOptions } from '../../components/PetitionOptions.tsx';
import { dataAge } from '../format.ts';
import { chipFor, latestEntryFor, QUEUES, waitingDays } from '../queues.ts';
import type { FormMode, QueueKind, QueueSort } from '../queues.ts';
import { useStores } from '../state/context.tsx';
import { useOnline, useQueueItems, useUser } from '../state/selectors.ts';
import { Chip } from '../components/Chip.tsx';
import { ConsoleFilter } from '../components/ConsoleFilter.tsx';


const NO_TERMS: Term[] = [];
export function QueueScreen({ kind }: { kind: QueueKind }) {
  const { data, nav, outbox } = useStores();
  const user = useUser();
  const online = useOnline();
  const queue = data((s) => s.queues[kind]);
  const filters = data((s) => s.filters[kind]);
  const terms = data((s) => s.terms.data) ?? NO_TERMS;
  const entries = outbox((s) => s.entries);
  const items = useQueueItems(kind);
  const selectedId = nav((s) => s.selected[kind]);
  const listRef = useRef<HTMLOListElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const selectedIndex = Math.max(0, items.findIndex((p) => p.id === selectedId));
  const now = Date.now();

  const focusRow = (index: number) => {
    const row = listRef.current?.querySelectorAll<HTMLButtonElement>('.console-row')[index];
    row?.focus();
  };

  // Land on the petition the user was on (or the first one) once the list is there.
  const landed = useRef(false);
  useEffect(() => {
    if (landed.current || queue.status === 'idle' || (queue.status === 'loading' && !queue.data)) return;
    landed.current = true;
    if (items.length) focusRow(selectedIndex);
    else headingRef.current?.focus();
  }, [queue.status, items.length]);

  // A row that had focus can leave the queue (its action applied): focus goes to the row now selected.
  useEffect(() => {
    if (!landed.current || nav.getState().overlay) return;
    if (document.activeElement === document.body && items.length) focusRow(selectedIndex);
  }, [items]);

  const open = (petition: Petition, mode: FormMode | null) => {
    nav.getState().select(kind, petition.id);
    nav.getState().go({ name: 'petition', id: petition.id, mode, from: kind });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const move = (index: number) => {
      const bounded = Math.min(items.length - 1, Math.max(0, index));
      const target = items[bounded];
      if (!target) return;
      event.preventDefault();
      nav.getState().select(kind, target.id);
      focusRow(bounded);
    };
    const current = items[selectedIndex];
    switch (event.key) {
      case 'ArrowDown':
      case 'j':
        move(selectedIndex + 1);
        break;
      case 'ArrowUp':
      case 'k':
        move(selectedIndex - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(items.length - 1);
        break;
      case 'r':
        if (current && canManageGovernmentResponse(user)) {
          event.preventDefault();
          open(current, 'respond');
        }
        break;
      case 'd':
        if (current && canManageDebate(user)) {
          event.preventDefault();
          open(current, 'debate');
        }
        break;
      default:
        break;
    }
  };

  const age = dataAge(queue.fetchedAt, queue.fromCache, now);
  const title = QUEUES[kind].title;
  return (
    <section className="console-screen" aria-labelledby="queue-title">
      <div className="console-screen__head">
        <h1 className="heading-l" id="queue-title" ref={headingRef} tabIndex={-1}>
          {title}
        </h1>
        <p className="console-age" data-testid="data-age">
          {queue.status === 'loading' ? 'Loading… ' : ''}
          {age ?? ''}
        </p>
      </div>
      <form className="console-filters" role="search" aria-label={`Filter ${title}`} onSubmit={(e) => e.preventDefault()}>
        <ConsoleFilter id={`${kind}-search`} label="Search by number or title">
          <input
            id={`${kind}-search`}
            className="input"
            type="search"
            autoComplete="off"
            value={filters.search}
            onChange={(e) => data.getState().setFilters(kind, { search: e.target.value })}
          />
        </ConsoleFilter>
        <ConsoleFilter id={`${kind}-term`} label="Term">
          <select
            id={`${kind}-term`}
            className="select"
            value={filters.term ?? ''}
            onChange={(e) => data.getState().setFilters(kind, { term: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">All terms</option>
            <TermOptions terms={terms} />
          </select>
        </ConsoleFilter>
        <ConsoleFilter id={`${kind}-tag`} label="Tag">
          <select
            id={`${kind}-tag`}
            className="select"
            value={filters.tag ?? ''}
            onChange={(e) => data.getState().setFilters(kind, { tag: e.target.value || null })}
          >
            <TagOptions />
          </select>
        </ConsoleFilter>
        <ConsoleFilter id={`${kind}-sort`} label="Order">
          <select
            id={`${kind}-sort`}
            className="select"
            value={filters.sort}
            onChange={(e) => data.getState().setFilters(kind, { sort: e.target.value as QueueSort })}
          >
            <option value="signatures">Most signatures first</option>
            <option value="waiting">Waiting longest first</option>
          </select>
        </ConsoleFilter>
      </form>
      {queue.status === 'error' && !queue.data ? (
        <p className="console-error" role="alert">
          Could not read this queue: {queue.error}
        </p>
      ) : null}
      <p className="console-hint" id={`${kind}-hint`}>
        {items.length} {items.length === 1 ? 'petition' : 'petitions'}. ↑/↓ or j/k to move, Enter to open
        {canManageGovernmentResponse(user) ? ', r to respond' : ''}
        {canManageDebate(user) ? ', d to record a debate' : ''}.
      </p>
      {items.length === 0 && queue.status === 'ready' ? <p className="body-m">Nothing is waiting here.</p> : null}
      <ol className="console-list" ref={listRef} onKeyDown={onKeyDown} aria-describedby={`${kind}-hint`}>
        {items.map((petition, index) => {
          const chip = chipFor(latestEntryFor(entries, petition.id), online);
          const selected = index === selectedIndex;
          const days = waitingDays(petition.created, now);
          return (
            <li key={petition.id}>
              <button
                type="button"
                className={`console-row${selected ? ' console-row--selected' : ''}`}
                tabIndex={selected ? 0 : -1}
                onClick={() => open(petition, QUEUES[kind].mode)}
                onFocus={() => nav.getState().select(kind, petition.id)}
              >
                <span className="console-row__number">#{petition.id}</span>
                <span className="console-row__title">{petition.title}</span>
                <span className="console-row__meta">
                  {signaturesText(petition.signatures)} · waiting {days} {days === 1 ? 'day' : 'days'} ·{' '}
                  {statusLabel(petition.status)}
                  {petition.tags.length ? ` · ${petition.tags.join(', ')}` : ''}
                </span>
                {chip ? <Chip chip={chip} /> : null}
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
