/**
 * Choosing one petition by typing part of its title (ARIA 1.2 combobox with a listbox popup).
 *
 * The choice is the petition the administrator clicked or confirmed with Enter, held as that
 * petition (id, title, version), never as a position in the list: the list narrows after a delay
 * (the server searches), and a choice made from the list as it was shown must stay that choice when
 * the list changes under it. Typing again drops the choice. The keyboard highlight is held by id too.
 */
import { useEffect, useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { Petition } from '../../../src-shared/domain/schemas.ts';
import { statusLabel } from '../../../src-shared/rules/classification.ts';
import { Field } from '../../components/Field.tsx';
import { truncate } from '../../components/format.ts';
import { usePetitionSearch } from './usePetitionSearch.ts';

export type ChosenPetition = Pick<Petition, 'id' | 'title' | 'version' | 'status'>;

/** How a petition reads in the list, in the box once chosen, and on the button that acts on it. */
export function petitionChoiceLabel(petition: Pick<Petition, 'id' | 'title'>): string {
  return `#${petition.id} ${truncate(petition.title, 80)}`;
}

export function PetitionCombobox({
  id,
  label,
  hint,
  error,
  chosen,
  onChoose,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string | null;
  chosen: ChosenPetition | null;
  onChoose: (petition: ChosenPetition | null) => void;
}) {
  const [text, setText] = useState(chosen ? petitionChoiceLabel(chosen) : '');
  const [open, setOpen] = useState(false);
  const [activeId, setActiveId] = useState<number | null>(null);
  const listboxId = `${id}-listbox`;
  const statusId = useId();
  const petitions = usePetitionSearch(chosen ? '' : text);
  const items = petitions.data?.items ?? [];
  const active = items.find((p) => p.id === activeId) ?? null;

  // The chosen petition may change outside (e.g. after an update, with its new status): show it.
  useEffect(() => {
    if (chosen) setText(petitionChoiceLabel(chosen));
  }, [chosen]);

  const choose = (petition: Petition) => {
    onChoose({ id: petition.id, title: petition.title, version: petition.version, status: petition.status });
    setText(petitionChoiceLabel(petition));
    setOpen(false);
    setActiveId(null);
  };

  const move = (step: 1 | -1) => {
    if (!items.length) return;
    const at = active ? items.indexOf(active) : -1;
    const next = at === -1 ? (step === 1 ? 0 : items.length - 1) : (at + step + items.length) % items.length;
    setActiveId(items[next]!.id);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp':
        event.preventDefault();
        if (!open) setOpen(true);
        move(event.key === 'ArrowDown' ? 1 : -1);
        break;
      case 'Enter':
        // Enter in an open list chooses the highlighted petition, not the form's submit.
        if (open && active) {
          event.preventDefault();
          choose(active);
        }
        break;
      case 'Escape':
        if (open) {
          event.preventDefault();
          setOpen(false);
          setActiveId(null);
        }
        break;
      default:
        break;
    }
  };

  const listed = petitions.status === 'loading' && items.length === 0 ? 'Loading petitions...' : `${items.length} petitions listed`;

  return (
    <Field id={id} label={label} hint={hint} error={error}>
      {(a11y) => (
        <div className="combobox">
          <input
            id={id}
            className="input"
            type="text"
            role="combobox"
            autoComplete="off"
            aria-autocomplete="list"
            aria-expanded={open}
            aria-controls={listboxId}
            aria-activedescendant={open && active ? `${id}-option-${active.id}` : undefined}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              if (chosen) onChoose(null);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onClick={() => setOpen(true)}
            onBlur={() => {
              setOpen(false);
              setActiveId(null);
            }}
            onKeyDown={onKeyDown}
            {...a11y}
          />
          {/* The form's value: the chosen petition's id, nothing else. */}
          <input type="hidden" name="petitionId" value={chosen ? String(chosen.id) : ''} />
          <ul id={listboxId} role="listbox" aria-label={label} className="combobox__list" hidden={!open} aria-busy={petitions.status === 'loading' || undefined}>
            {items.map((p) => (
              <li
                key={p.id}
                id={`${id}-option-${p.id}`}
                role="option"
                aria-selected={chosen?.id === p.id}
                className={`combobox__option${p.id === activeId ? ' combobox__option--active' : ''}`}
                // mousedown would blur the box and close the list before the click lands.
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(p)}
              >
                {petitionChoiceLabel(p)} ({statusLabel(p.status)})
              </li>
            ))}
          </ul>
          <p id={statusId} className="visually-hidden" role="status">
            {open ? listed : ''}
          </p>
        </div>
      )}
    </Field>
  );
}
