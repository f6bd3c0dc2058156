/**
 * Type-ahead for the form a shortcut opens (README.md#console-screens-and-shortcuts). `r` on a queue opens the
 * response form with the cursor in its text, and a fast typist types on at once. When the form cannot be
 * there yet (its screen's code or the petition is still on its way, on a slow or loaded machine), the keys
 * typed meanwhile are held here rather than taken for shortcuts (a `j` or `d` in a sentence would move the
 * queue or open another form), and the form puts them in its text as it opens. Escape, or no form within
 * TYPE_AHEAD_MAX_MS, ends it and drops what was held.
 */
import { isTypingTarget } from './shortcutKeys.ts';

/** The longest the console holds keys for a form that does not open. */
const TYPE_AHEAD_MAX_MS = 10_000;

let held: string | null = null;
let timer: number | undefined;

function end(): void {
  held = null;
  window.clearTimeout(timer);
}

/**
 * Listens for keys to hold, once, before anything else listens (mountConsole): in the capture phase on the
 * window, ahead of the shortcuts (shortcutKeys.ts), so a held key reaches neither them nor the page.
 */
export function installTypeAhead(): void {
  window.addEventListener(
    'keydown',
    (event) => {
      if (held === null || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
      // A field the member moved to (the palette's, say) takes its keys itself.
      if (isTypingTarget(event.target)) return;
      if (event.key === 'Escape') {
        end();
        return;
      }
      const typed = event.key === 'Enter' ? '\n' : event.key.length === 1 ? event.key : null;
      if (typed === null && event.key !== 'Backspace') return;
      event.preventDefault();
      event.stopImmediatePropagation();
      held = typed === null ? held.slice(0, -1) : held + typed;
    },
    { capture: true },
  );
}

/** Starts holding the keys typed until the form takes them (takeTypedAhead) or they are given up. */
export function startTypeAhead(): void {
  end();
  held = '';
  timer = window.setTimeout(end, TYPE_AHEAD_MAX_MS);
}

/** What was typed ahead ('' when nothing), ending the type-ahead: the form calls it as it opens. */
export function takeTypedAhead(): string {
  const typed = held ?? '';
  end();
  return typed;
}
