/**
 * Petitions for the administrator's pickers (assign, status override): the server searches, the
 * newest first, up to the page maximum. Reloads when petitions change anywhere in the app.
 */
import { PAGE_SIZE_MAX } from '../../../src-shared/domain/constants.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { useDebounced } from '../../hooks/useDebounced.ts';
import { api } from '../../services/api.ts';
import { usePetitionsVersion } from '../../stores/index.ts';


export function usePetitionSearch(search: string) {
  const query = useDebounced(search.trim(), 300);
  const version = usePetitionsVersion((s) => s.version);
  return useAsync(
    () => api.listPetitions({ search: query || undefined, sort: 'newest', pageSize: PAGE_SIZE_MAX }),
    [query, version],
  );
}
