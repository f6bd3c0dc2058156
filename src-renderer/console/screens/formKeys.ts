import type { KeyboardEvent } from 'react';

/** Ctrl+Enter (Cmd+Enter on a Mac) submits the form from any of its fields. */
export function submitOnCtrlEnter(event: KeyboardEvent<HTMLFormElement>): void {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    event.currentTarget.requestSubmit();
  }
}
