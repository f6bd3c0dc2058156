/**
 * Choosing the petition a reported one duplicates: type words of its title, then pick one of the
 * matching open petitions (radio buttons), each shown with its number. Light on purpose: it loads
 * with the report dialog, not with the staff screens' combobox.
 */
import { useId, useState } from 'react';
import { MODERATION_TEXTS } from '../../../src-shared/domain/moderation-texts.ts';
import { useDebouncedSearch } from '../../hooks/useDebouncedSearch.ts';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiListPetitions } from '../../../src-shared/api/visitor-calls.ts';

const CHOICES = 5;

export function DuplicateChooser({
  petitionId,
  chosen,
  onChoose,
  error,
}: {
  petitionId: number;
  chosen: number | null;
  onChoose: (id: number | null) => void;
  error: string | null;
}) {
  const id = useId();
  const [text, setText] = useState('');
  const found = useDebouncedSearch(text, 300, (search) => (search ? apiListPetitions(apiCaller, { search, pageSize: CHOICES + 1 }).then((list) => list.items) : null));
  const items = found.filter((p) => p.id !== petitionId).slice(0, CHOICES);
  const errorId = error ? `${id}-error` : undefined;
  return (
    <fieldset className={`form-group${error ? ' form-group--error' : ''}`} aria-describedby={errorId}>
      <legend className="label">{MODERATION_TEXTS.duplicateLabel}</legend>
      {error ? (
        <p className="error-message" id={errorId}>
          <span className="visually-hidden">Error:</span> {error}
        </p>
      ) : null}
      <label className="hint" htmlFor={`${id}-search`}>
        {MODERATION_TEXTS.duplicateHint}
      </label>
      <input id={`${id}-search`} className="input" type="search" value={text} onChange={(e) => setText(e.target.value)} autoComplete="off" />
      <div className="radios" aria-live="polite">
        {items.map((petition) => (
          <div className="radios__item" key={petition.id}>
            <input
              className="radios__input"
              type="radio"
              id={`${id}-${petition.id}`}
              name={`${id}-duplicate`}
              checked={chosen === petition.id}
              onChange={() => onChoose(petition.id)}
            />
            <label className="radios__label" htmlFor={`${id}-${petition.id}`}>
              #{petition.id} {petition.title}
            </label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
