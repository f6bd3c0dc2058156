/**
 * Ctrl+K / Cmd+K: type to jump to a petition (number or title), a queue or screen, or to run an
 * action allowed to the signed-in rank. ↑/↓ choose, Enter runs, Escape closes. ARIA combobox
 * with a listbox, so screen readers follow the active option.
 */
import { useEffect, useMemo, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { Petition } from '../../../src-shared/domain/schemas.ts';
import { syncNow } from '../actions.ts';
import { caseCommands, filterCommands, petitionCommands, staticCommands } from '../commands.ts';
import { canSeeModerationQueue } from '../queues.ts';
import type { Command } from '../commands.ts';
import { Dialog } from '../../components/Dialog.tsx';
import { useStores } from '../state/context.tsx';
import { useUser } from '../state/selectors.ts';
import { readPath } from '../state/cachedReads.ts';
import type { PetitionList } from '../../../src-shared/domain/schemas.ts';
import type { ConsoleStores } from '../state/stores.ts';
import { isSameScreen } from '../state/navStore.ts';

export function runCommand(stores: ConsoleStores, command: Command): void {
  const nav = stores.nav.getState();
  nav.open(null);
  switch (command.effect.type) {
    case 'go': {
      const screen = command.effect.screen;
      // Already there: closing the palette puts focus back where it was, and that is all. (Going
      // there again later would undo a key pressed meanwhile, e.g. a case screen's x.)
      if (isSameScreen(nav.screen, screen)) break;
      // After the palette has closed: closing a modal dialog puts focus back where it was, which
      // would take it from the screen that opens (its heading or its form's first field).
      window.setTimeout(() => stores.nav.getState().go(screen), 0);
      break;
    }
    case 'overlay':
      nav.open(command.effect.overlay);
      break;
    case 'sync':
      void syncNow(stores);
      break;
    case 'signOut':
      void stores.session.getState().signOut();
      break;
  }
}

export function CommandPalette({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog panel open={open} title="Command palette" onClose={onClose} className="console-palette">
      <PaletteBody />
    </Dialog>
  );
}

function PaletteBody() {
  const stores = useStores();
  const user = useUser();
  const screen = stores.nav((s) => s.screen);
  const queues = stores.data((s) => s.queues);
  const pages = stores.data((s) => s.petitions);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const [found, setFound] = useState<Petition[]>([]);
  const reviewCases = stores.moderation((s) => s.queues.review.data?.items);
  const rejectedCases = stores.moderation((s) => s.queues.rejected.data?.items);

  // Titles the console has not read yet: ask the server's search (or the cache offline), debounced.
  useEffect(() => {
    const text = query.trim();
    if (text.length < 3 || /^#?\d+$/.test(text)) {
      setFound([]);
      return undefined;
    }
    let current = true;
    const timer = window.setTimeout(() => {
      readPath<PetitionList>(stores.api, `/api/petitions?${new URLSearchParams({ search: text, pageSize: '8' })}`).then(
        (read) => current && setFound(read.data.items),
        () => current && setFound([]),
      );
    }, 200);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [query, stores]);

  const results = useMemo(() => {
    const known = new Map<number, Petition>();
    for (const p of [...(queues.response.data ?? []), ...(queues.debate.data ?? [])]) known.set(p.id, p);
    for (const page of Object.values(pages)) if (page.data) known.set(page.data.id, page.data);
    for (const p of found) if (!known.has(p.id)) known.set(p.id, p);
    // Screens and actions first: a word like "bulk" means the screen before the petitions that mention it.
    const cases = canSeeModerationQueue(user) ? caseCommands([...(reviewCases ?? []), ...(rejectedCases ?? [])], query) : [];
    return [...filterCommands(staticCommands(user, screen), query), ...cases, ...petitionCommands([...known.values()], query)].slice(0, 20);
  }, [query, queues, pages, found, user, screen, reviewCases, rejectedCases]);

  const index = Math.min(active, Math.max(0, results.length - 1));
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setActive((index + 1) % Math.max(1, results.length));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index - 1 + results.length) % Math.max(1, results.length));
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const chosen = results[index];
      if (chosen) runCommand(stores, chosen);
    }
  };

  return (
    <div className="console-palette__body">
      <label className="label" htmlFor="palette-input">
        Petition number or title, screen, or action
      </label>
      <input
        id="palette-input"
        className="input"
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-results"
        aria-activedescendant={results[index] ? `palette-option-${index}` : undefined}
        autoComplete="off"
        data-autofocus
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <ul className="console-palette__results" id="palette-results" role="listbox" aria-label="Commands">
        {results.map((command, i) => (
          <li
            key={command.id}
            id={`palette-option-${i}`}
            role="option"
            aria-selected={i === index}
            className={`console-palette__option${i === index ? ' console-palette__option--active' : ''}`}
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => runCommand(stores, command)}
          >
            <span className="console-palette__group">{command.group}</span> {command.label}
          </li>
        ))}
      </ul>
      {results.length === 0 ? <p className="console-hint">Nothing matches.</p> : null}
    </div>
  );
}
