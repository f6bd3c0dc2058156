/**
 * The moderation queue (docs/moderation.md#in-the-staff-console): reported and hidden petitions,
 * most open reports first (the server's order), or the rejected ones; worked from the keyboard like
 * the petition queues (↑/↓ or j/k, Enter opens the case, Space marks it for a bulk decision). A case
 * with a decision on its way stays with its chip until the server applied it.
 */
import { useEffect, useMemo, useRef } from 'react';
import type { KeyboardEvent } from 'react';
import type { ModerationQueueView } from '../../../src-shared/domain/moderation-constants.ts';
import { MODERATION_TEXTS } from '../../../src-shared/domain/moderation-texts.ts';
import type { ModerationCase } from '../../../src-shared/domain/moderation-schemas.ts';
import { signaturesText } from '../../components/format.ts';
import { dataAge } from '../format.ts';
import { caseStateLabel, moderationItems, reasonsSummary, withDecisionsOnTheirWay } from '../moderation.ts';
import { chipFor, latestEntryFor } from '../queues.ts';
import { useStores } from '../state/context.tsx';
import { useOnline } from '../state/selectors.ts';
import { Chip } from '../components/Chip.tsx';
import { ConsoleFilter } from '../components/ConsoleFilter.tsx';
import { ModerationBulk } from './ModerationBulk.tsx';

const VIEW_LABELS: Record<ModerationQueueView, string> = {
  review: 'To review: reported and hidden',
  rejected: 'Rejected',
};

function openReportsText(n: number): string {
  return `${n} open ${n === 1 ? 'report' : 'reports'}`;
}

export function ModerationQueueScreen() {
  const { moderation, nav, outbox } = useStores();
  const online = useOnline();
  const view = moderation((s) => s.view);
  const queue = moderation((s) => s.queues[view]);
  const search = moderation((s) => s.search);
  const marked = moderation((s) => s.marked);
  const selectedId = moderation((s) => s.selected);
  const entries = outbox((s) => s.entries);
  const seen = moderation((s) => s.seen);
  const items = useMemo(
    () => moderationItems(withDecisionsOnTheirWay(queue.data?.items ?? [], seen, entries), search),
    [queue.data, seen, entries, search],
  );
  const listRef = useRef<HTMLOListElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const selectedIndex = Math.max(0, items.findIndex((item) => item.petition.id === selectedId));
  const markedCases = useMemo(() => items.filter((item) => marked.includes(item.petition.id)), [items, marked]);

  useEffect(() => {
    void moderation.getState().loadQueue(view);
  }, [moderation, view]);

  const focusRow = (index: number) => {
    listRef.current?.querySelectorAll<HTMLButtonElement>('.console-row')[index]?.focus();
  };

  // Land on the case the user was on (or the first one) once the list is there.
  const landed = useRef(false);
  useEffect(() => {
    if (landed.current || queue.status === 'idle' || (queue.status === 'loading' && !queue.data)) return;
    landed.current = true;
    if (items.length) focusRow(selectedIndex);
    else headingRef.current?.focus();
  }, [queue.status, items.length]);

  // A focused row can leave the queue (its decision applied): focus goes to the row now selected.
  useEffect(() => {
    if (!landed.current || nav.getState().overlay) return;
    if (document.activeElement === document.body && items.length) focusRow(selectedIndex);
  }, [items]);

  const open = (item: ModerationCase) => {
    moderation.getState().select(item.petition.id);
    nav.getState().go({ name: 'moderationCase', id: item.petition.id, control: null });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const move = (index: number) => {
      const target = items[Math.min(items.length - 1, Math.max(0, index))];
      if (!target) return;
      event.preventDefault();
      moderation.getState().select(target.petition.id);
      focusRow(items.indexOf(target));
    };
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
      case ' ': {
        // Space marks instead of opening (a row is a button; the keydown's default would click it).
        const current = items[selectedIndex];
        if (current && (event.target as HTMLElement).classList.contains('console-row')) {
          event.preventDefault();
          moderation.getState().toggleMarked(current.petition.id);
        }
        break;
      }
      default:
        break;
    }
  };

  const title = MODERATION_TEXTS.queueTitle;
  const counts = queue.data?.counts;
  return (
    <section className="console-screen" aria-labelledby="moderation-title">
      <div className="console-screen__head">
        <h1 className="heading-l" id="moderation-title" ref={headingRef} tabIndex={-1}>
          {title}
        </h1>
        <p className="console-age" data-testid="data-age">
          {queue.status === 'loading' ? 'Loading… ' : ''}
          {dataAge(queue.fetchedAt, queue.fromCache) ?? ''}
        </p>
      </div>
      <form className="console-filters" role="search" aria-label={`Filter ${title}`} onSubmit={(e) => e.preventDefault()}>
        <ConsoleFilter id="moderation-search" label="Search by number or title">
          <input
            id="moderation-search"
            className="input"
            type="search"
            autoComplete="off"
            value={search}
            onChange={(e) => moderation.getState().setSearch(e.target.value)}
          />
        </ConsoleFilter>
        <ConsoleFilter id="moderation-view" label="Show">
          <select
            id="moderation-view"
            className="select"
            value={view}
            onChange={(e) => moderation.getState().setView(e.target.value as ModerationQueueView)}
          >
            {(Object.keys(VIEW_LABELS) as ModerationQueueView[]).map((v) => (
              <option key={v} value={v}>
                {VIEW_LABELS[v]}
              </option>
            ))}
          </select>
        </ConsoleFilter>
      </form>
      {queue.status === 'error' && !queue.data ? (
        <p className="console-error" role="alert">
          Could not read the moderation queue: {queue.error}
        </p>
      ) : null}
      <p className="console-hint" id="moderation-hint">
        {items.length} {items.length === 1 ? 'petition' : 'petitions'}
        {counts ? ` (${counts.reported} reported, ${counts.hidden} hidden, ${counts.rejected} rejected)` : ''}. ↑/↓ or j/k to
        move, Enter to open, Space to mark for a bulk decision.
      </p>
      <ModerationBulk items={items} marked={markedCases} />
      {items.length === 0 && queue.status === 'ready' ? (
        <p className="body-m">{view === 'review' ? MODERATION_TEXTS.queueEmpty : MODERATION_TEXTS.rejectedEmpty}</p>
      ) : null}
      <ol className="console-list" ref={listRef} onKeyDown={onKeyDown} aria-describedby="moderation-hint">
        {items.map((item, index) => {
          const id = item.petition.id;
          const chip = chipFor(latestEntryFor(entries, id), online);
          const selected = index === selectedIndex;
          const isMarked = marked.includes(id);
          const reasons = reasonsSummary(item);
          return (
            <li key={id} className="console-mod-row">
              <input
                type="checkbox"
                id={`moderation-mark-${id}`}
                className="console-mod-row__mark"
                tabIndex={-1}
                checked={isMarked}
                onChange={() => moderation.getState().toggleMarked(id)}
              />
              <label htmlFor={`moderation-mark-${id}`} className="visually-hidden">
                Mark petition #{id} for a bulk decision
              </label>
              <button
                type="button"
                className={`console-row${selected ? ' console-row--selected' : ''}`}
                tabIndex={selected ? 0 : -1}
                onClick={() => open(item)}
                onFocus={() => moderation.getState().select(id)}
              >
                <span className="console-row__number">#{id}</span>
                <span className="console-row__title">{item.petition.title}</span>
                <span className="console-row__meta">
                  {isMarked ? 'Marked · ' : ''}
                  {caseStateLabel(item)} · {openReportsText(item.openReports)}
                  {reasons ? ` · ${reasons}` : ''} · by {item.creator.name} · {signaturesText(item.petition.signatures)}
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
