/**
 * The petition list's filters live in the URL: search, status, tag, term, sort, page.
 * These pure functions read and write them and build the count line.
 */
import {
  DEFAULT_SORT,
  PAGE_SIZE_DEFAULT,
  SORT_OPTIONS,
  STATUS_FILTERS,
  TAGS,
} from '../../src-shared/domain/constants.ts';
import type { SortOption, StatusFilter } from '../../src-shared/domain/constants.ts';
import type { PetitionListRequest } from '../../src-shared/domain/schemas.ts';

export interface ListFilters {
  search: string;
  status: StatusFilter;
  tag: string;
  term: number | null;
  sort: SortOption;
  page: number;
}

const isStatus = (v: string | null): v is StatusFilter => STATUS_FILTERS.some((f) => f.value === v);
const isSort = (v: string | null): v is SortOption => SORT_OPTIONS.some((s) => s.value === v);
const isTag = (v: string | null): v is string => (TAGS as readonly string[]).includes(v ?? '');

/** Unknown values are ignored rather than sent, so a hand-edited address still shows a list. */
export function readFilters(params: URLSearchParams): ListFilters {
  const status = params.get('status');
  const sort = params.get('sort');
  const tag = params.get('tag');
  const term = Number(params.get('term'));
  const page = Number(params.get('page'));
  return {
    search: (params.get('search') ?? '').trim(),
    status: isStatus(status) ? status : 'all',
    tag: isTag(tag) ? tag : '',
    term: Number.isInteger(term) && term > 0 ? term : null,
    sort: isSort(sort) ? sort : DEFAULT_SORT,
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The address query for filters; defaults are left out to keep addresses short. */
export function writeFilters(filters: ListFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.search) params.set('search', filters.search);
  if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.tag) params.set('tag', filters.tag);
  if (filters.term !== null) params.set('term', String(filters.term));
  if (filters.sort !== DEFAULT_SORT) params.set('sort', filters.sort);
  if (filters.page > 1) params.set('page', String(filters.page));
  return params;
}

export function listHref(filters: ListFilters): string {
  const query = writeFilters(filters).toString();
  return `/petitions${query ? `?${query}` : ''}`;
}

export function toApiQuery(filters: ListFilters, pageSize = PAGE_SIZE_DEFAULT): PetitionListRequest {
  const query: PetitionListRequest = { sort: filters.sort, page: filters.page, pageSize };
  if (filters.search) query.search = filters.search;
  if (filters.status !== 'all') query.status = filters.status;
  if (filters.tag) query.tag = filters.tag;
  if (filters.term !== null) query.term = filters.term;
  return query;
}

/** The same filters without paging, for the CSV download of the whole current list. */
export function toCsvQuery(filters: ListFilters): PetitionListRequest {
  const { page: _page, pageSize: _size, ...rest } = toApiQuery(filters);
  return rest;
}

export function statusFilterLabel(status: StatusFilter): string {
  return STATUS_FILTERS.find((f) => f.value === status)?.label ?? 'All petitions';
}

/** 'Showing N petitions' plus the search text, the filter label and the term name. */
export function countLine(total: number, filters: ListFilters, termName: string | null): string {
  let text = `Showing ${total} ${total === 1 ? 'petition' : 'petitions'}`;
  if (filters.search) text += ` matching "${filters.search}"`;
  if (filters.status !== 'all') text += ` · ${statusFilterLabel(filters.status)}`;
  if (filters.tag) text += ` · tagged ${filters.tag}`;
  if (filters.term !== null) text += ` · ${termName ?? `Term ${filters.term}`}`;
  return text;
}

export function activeFilterCount(filters: ListFilters): number {
  return (filters.status !== 'all' ? 1 : 0) + (filters.tag ? 1 : 0) + (filters.term !== null ? 1 : 0);
}
