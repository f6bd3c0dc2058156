/** Petition list: search, sort, collapsible filters, count line, cards, pagination, CSV link. */
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from '../navigation.ts';
import { Link } from '../components/Link.tsx';
import { SORT_OPTIONS } from '../../src-shared/domain/constants.ts';
import { SITE_ERRORS } from '../../src-shared/domain/site-messages.ts';
import type { SortOption, StatusFilter } from '../../src-shared/domain/constants.ts';
import { apiCaller } from '../services/apiCaller.ts';
import { apiExportPetitionsCsv, apiListPetitions } from '../../src-shared/api/visitor-calls.ts';
import { termName, usePetitionsVersion, useSite } from '../stores/index.ts';
import { useAsync } from '../hooks/useAsync.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { PetitionCard } from '../components/PetitionCard.tsx';
import { Pagination } from '../components/Pagination.tsx';
import { Loading } from '../components/Loading.tsx';
import { Notice } from '../components/Notice.tsx';
import { SearchForm } from '../components/SearchForm.tsx';
import { StatusFilterOptions, TagOptions, TermOptions } from '../components/PetitionOptions.tsx';
import {
  activeFilterCount,
  countLine,
  listHref,
  readFilters,
  toApiQuery,
  toCsvQuery,
  writeFilters,
} from './listQuery.ts';
import type { ListFilters } from './listQuery.ts';

export const EMPTY_LIST_TEXT = 'No petitions match your current filters.';

/** The sentence for a term filter naming no term; null while terms load or when the term exists. */
export function unknownTermText(raw: string | null, termId: number | null, terms: readonly { id: number }[] | null): string | null {
  if (raw === null || !raw.trim()) return null;
  if (termId === null) return `There is no parliamentary term "${raw}".`;
  if (terms === null || terms.some((t) => t.id === termId)) return null;
  return `There is no parliamentary term with the number ${termId}.`;
}

export function PetitionListPage() {
  useDocumentTitle('All petitions');
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const version = usePetitionsVersion((s) => s.version);
  const terms = useSite((s) => s.terms);
  const termsLoaded = useSite((s) => s.termsLoaded);
  // Open at first when a filter is active; afterwards the user decides (changing a filter keeps it open).
  const [filtersOpen, setFiltersOpen] = useState(() => activeFilterCount(filters) > 0);
  const queryKey = writeFilters(filters).toString();

  // A new page of results starts at the top, like a new page would.
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    window.scrollTo(0, 0);
  }, [filters.page]);

  const list = useAsync(() => apiListPetitions(apiCaller, toApiQuery(filters)), [queryKey, version]);

  const update = (change: Partial<ListFilters>) => {
    // Any new filter starts again at page 1.
    setParams(writeFilters({ ...filters, page: 1, ...change }));
  };

  const name = termName(terms, filters.term);
  const data = list.data;
  // ?term=999 or ?term=abc: say so, rather than naming a 'Term 999' or quietly listing every term.
  const unknownTerm = unknownTermText(params.get('term'), filters.term, termsLoaded ? terms : null);

  return (
    <>
      <h1 className="heading-xl">{filters.term !== null && name ? `Petitions in ${name}` : 'All petitions'}</h1>

      {unknownTerm ? (
        <Notice tone="error" live="alert">
          <p>
            <strong>{SITE_ERRORS.termNotFound}.</strong> {unknownTerm}
          </p>
          <p>
            <Link className="button button--secondary" to="/petitions">
              Show all petitions
            </Link>
          </p>
        </Notice>
      ) : null}

      <SearchForm id="list-search" initial={filters.search} onSearch={(search) => update({ search })} />

      <div className="list-controls">
        <div className="form-group form-group--inline">
          <label className="label" htmlFor="list-sort">
            Sort by
          </label>
          <select
            id="list-sort"
            className="select"
            value={filters.sort}
            onChange={(e) => update({ sort: e.target.value as SortOption })}
          >
            {SORT_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>

        <details className="filters" open={filtersOpen} onToggle={(e) => setFiltersOpen(e.currentTarget.open)}>
          <summary>
            Filters{activeFilterCount(filters) > 0 ? ` (${activeFilterCount(filters)} active)` : ''}
          </summary>
          <div className="filters__body">
            <div className="form-group">
              <label className="label" htmlFor="filter-status">
                Status
              </label>
              <select
                id="filter-status"
                className="select"
                value={filters.status}
                onChange={(e) => update({ status: e.target.value as StatusFilter })}
              >
                <StatusFilterOptions />
              </select>
            </div>
            <div className="form-group">
              <label className="label" htmlFor="filter-tag">
                Tag
              </label>
              <select id="filter-tag" className="select" value={filters.tag} onChange={(e) => update({ tag: e.target.value })}>
                <TagOptions />
              </select>
            </div>
            <div className="form-group">
              <label className="label" htmlFor="filter-term">
                Parliamentary term
              </label>
              <select
                id="filter-term"
                className="select"
                value={filters.term === null ? '' : String(filters.term)}
                onChange={(e) => update({ term: e.target.value ? Number(e.target.value) : null })}
              >
                <option value="">All terms</option>
                {filters.term !== null && !terms.some((t) => t.id === filters.term) ? (
                  <option value={String(filters.term)}>{name ?? 'Unknown term'}</option>
                ) : null}
                <TermOptions terms={terms} />
              </select>
            </div>
            {activeFilterCount(filters) > 0 || filters.search ? (
              <button
                type="button"
                className="button button--secondary"
                onClick={() => setParams(writeFilters({ ...filters, search: '', status: 'all', tag: '', term: null, page: 1 }))}
              >
                Clear filters
              </button>
            ) : null}
          </div>
        </details>
      </div>

      <div className="list-summary">
        <p className="count-line" role="status">
          {data ? countLine(data.total, filters, name ?? (unknownTerm ? 'Unknown term' : null)) : ''}
        </p>
        <a className="link-strong" href={apiExportPetitionsCsv(apiCaller, toCsvQuery(filters))} download>
          Download this list (CSV)
        </a>
      </div>

      {list.status === 'loading' && !data ? <Loading text="Loading petitions..." className="loading--cards" /> : null}
      {list.status === 'error' && !data ? (
        <Notice tone="error" live="alert">
          <p>Petitions could not be loaded. Please try again.</p>
        </Notice>
      ) : null}
      {data && data.items.length === 0 ? <p className="empty">{EMPTY_LIST_TEXT}</p> : null}
      {data && data.items.length > 0 ? (
        <ol className="card-list" aria-busy={list.status === 'loading' || undefined}>
          {data.items.map((p) => (
            <li key={p.id}>
              <PetitionCard petition={p} headingLevel={2} />
            </li>
          ))}
        </ol>
      ) : null}
      {data ? (
        <Pagination
          page={filters.page}
          total={data.total}
          pageSize={data.pageSize}
          hrefFor={(page) => listHref({ ...filters, page })}
        />
      ) : null}
    </>
  );
}
