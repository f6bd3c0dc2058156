/**
 * A queue of petitions awaiting a government response or a debate: filters, search, order, and a
 * list worked from the keyboard (↑/↓ or j/k, Enter opens, r responds, d debates). Focus comes back
 * to the petition the user was on.
 */
import { useEffect, useRef } from 'react';
import type { KeyboardEvent } from 'react';
import type { Petition } from '../../../src-shared/domain/schemas.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import { canManageDebate, canManageGovernmentResponse } from '../../../src-shared/rules/permissions.ts';
import { signaturesText } from '../../components/format.ts';
import { dataAge } from '../format.ts';
import { AGEING_MARK_LABELS, ageingText, queueAgeing } from '../../../src-shared/rules/queue-ageing.ts';
import { chipFor, latestEntryFor, QUEUES } from '../queues.ts';
import type { FormMode, QueueKind } from '../queues.ts';
import { useStores } from '../state/context.tsx';
import { useOnline, useQueueItems, useQueueTargets, useUser } from '../state/selectors.ts';
import { Chip } from '../components/Chip.tsx';
import { QUEUE_INTERACTIVE_MARK, startAfterFirstScreen, useWorkspaceBackground, useWorkspaceFrame } from '../lazyScreens.ts';
import { useShortcutKeys } from '../shortcutKeys.ts';
import { startTypeAhead } from '../typeAhead.ts';


export function QueueScreen({ kind }: { kind: QueueKind }) {
  const { data, nav, outbox } = useStores();
  // The filters come with the workspace frame's chunk; colleagues' notes with the background's, which
  // this queue being interactive starts (lazyScreens.ts).
  const frame = useWorkspaceFrame();
  const background = useWorkspaceBackground();
  const user = useUser();
  const online = useOnline();
  const queue = data((s) => s.queues[kind]);
  const entries = outbox((s) => s.entries);
  const items = useQueueItems(kind);
  const targets = useQueueTargets();
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
    // The queue is interactive (npm run perf:console reads this mark): now fetch what its keys open
    // (r, Enter, o, ?, Ctrl+K) and start the background work.
    performance.mark(QUEUE_INTERACTIVE_MARK);
    startAfterFirstScreen();
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

  const move = (index: number) => {
    const bounded = Math.min(items.length - 1, Math.max(0, index));
    const target = items[bounded];
    if (!target) return;
    nav.getState().select(kind, target.id);
    focusRow(bounded);
  };
  const current = items[selectedIndex];
  // j/k, r and d anywhere on the screen outside its fields, consumed at keydown (shortcutKeys.ts).
  useShortcutKeys({
    j: () => move(selectedIndex + 1),
    k: () => move(selectedIndex - 1),
    r:
      Boolean(current) &&
      canManageGovernmentResponse(user) &&
      (() => {
        // Keys typed before the form is there go into it, not to the shortcuts (typeAhead.ts).
        startTypeAhead();
        open(current!, 'respond');
      }),
    d: Boolean(current) && canManageDebate(user) && (() => open(current!, 'debate')),
  });
  // The list's own keys (they type nothing): arrows, Home and End.
  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const targets: Partial<Record<string, number>> = { ArrowDown: selectedIndex + 1, ArrowUp: selectedIndex - 1, Home: 0, End: items.length - 1 };
    const to = targets[event.key];
    if (to === undefined || items.length === 0) return;
    event.preventDefault();
    move(to);
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
      {/* The filters come with the workspace frame's chunk, requested by the workspace's first render (QueueFilterBar.tsx). */}
      {frame ? <frame.QueueFilterBar kind={kind} /> : null}
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
      {background ? <background.PresenceNotice /> : null}
      {items.length === 0 && queue.status === 'ready' ? <p className="body-m">Nothing is waiting here.</p> : null}
      <ol className="console-list" ref={listRef} onKeyDown={onKeyDown} aria-describedby={`${kind}-hint`}>
        {items.map((petition, index) => {
          const chip = chipFor(latestEntryFor(entries, petition.id), online);
          const selected = index === selectedIndex;
          const ageing = queueAgeing(petition, kind, now, targets);
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
                  {ageing.mark ? <strong className={`console-mark console-mark--${ageing.mark}`}>{AGEING_MARK_LABELS[ageing.mark]}</strong> : null}
                  {signaturesText(petition.signatures)} · {ageingText(ageing, now)} · {statusLabel(petition.status)}
                  {petition.tags.length ? ` · ${petition.tags.join(', ')}` : ''}
                </span>
                {background ? <background.PresenceNote petitionId={petition.id} /> : null}
                {chip ? <Chip chip={chip} /> : null}
              </button>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
