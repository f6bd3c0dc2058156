import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  countLine,
  listHref,
  readFilters,
  toApiQuery,
  toCsvQuery,
  writeFilters,
} from '../../src-renderer/pages/listQuery.ts';

describe('petition list filters in the URL', () => {
  it('reads defaults from an empty query', () => {
    expect(readFilters(new URLSearchParams())).toEqual({
      search: '',
      status: 'all',
      tag: '',
      term: null,
      sort: 'most_signatures',
      page: 1,
    });
  });

  it('reads known values and ignores unknown ones', () => {
    const f = readFilters(new URLSearchParams('search=%20roads%20&status=debated&tag=Budget&term=3&sort=newest&page=2'));
    expect(f).toEqual({ search: 'roads', status: 'debated', tag: 'Budget', term: 3, sort: 'newest', page: 2 });
    const bad = readFilters(new URLSearchParams('status=weird&tag=Nope&term=-1&sort=random&page=0'));
    expect(bad).toMatchObject({ status: 'all', tag: '', term: null, sort: 'most_signatures', page: 1 });
  });

  it('writes only non-default values and round-trips', () => {
    const f = readFilters(new URLSearchParams('search=tax&term=2&sort=oldest'));
    expect(writeFilters(f).toString()).toBe('search=tax&term=2&sort=oldest');
    expect(readFilters(writeFilters(f))).toEqual(f);
    expect(listHref({ ...f, page: 3 })).toBe('/petitions?search=tax&term=2&sort=oldest&page=3');
    expect(listHref(readFilters(new URLSearchParams()))).toBe('/petitions');
  });

  it('builds the API and CSV queries', () => {
    const f = readFilters(new URLSearchParams('search=tax&status=open&page=2'));
    expect(toApiQuery(f)).toEqual({ sort: 'most_signatures', page: 2, pageSize: 20, search: 'tax', status: 'open' });
    expect(toCsvQuery(f)).toEqual({ sort: 'most_signatures', search: 'tax', status: 'open' });
  });

  it("writes the count line: 'Showing N petitions' plus search, filter label and term", () => {
    const none = readFilters(new URLSearchParams());
    expect(countLine(12, none, null)).toBe('Showing 12 petitions');
    expect(countLine(1, none, null)).toBe('Showing 1 petition');
    const all = readFilters(new URLSearchParams('search=roads&status=with_response&tag=Laws&term=2'));
    expect(countLine(3, all, 'Term 87')).toBe(
      'Showing 3 petitions matching "roads" · Government responses · tagged Laws · Term 87',
    );
    expect(activeFilterCount(all)).toBe(3);
  });
});
