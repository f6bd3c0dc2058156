/**
 * The petition search box used on the home page and the list page: it keeps its own text and hands
 * the trimmed query over on Enter or the Search button.
 * Usage: <SearchForm id="home-search" initial="" onSearch={(text) => ...} />
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';

export function SearchForm({ id, initial = '', onSearch }: { id: string; initial?: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState(initial);
  // A search changed elsewhere (back button, a link) shows up in the box.
  useEffect(() => setText(initial), [initial]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };
  return (
    <form className="search" role="search" onSubmit={submit}>
      <label className="label" htmlFor={id}>
        Search petitions
      </label>
      <div className="search__row">
        <input
          id={id}
          className="input"
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          autoComplete="off"
        />
        <button type="submit" className="button search__button">
          Search
        </button>
      </div>
    </form>
  );
}
