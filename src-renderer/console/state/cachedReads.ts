/**
 * Reads through the main process's cache (`data:read`): a path's data with when it was fetched and
 * whether it came from the cache, and a whole petition list read page by page.
 */
import type { ConsoleApi } from '../../../src-shared/console/ipc-contract.ts';
import { PAGE_SIZE_MAX } from '../../../src-shared/domain/constants.ts';
import type { Petition, PetitionList } from '../../../src-shared/domain/schemas.ts';
import { call } from '../consoleApi.ts';

export interface Loaded<T> {
  data: T | null;
  fetchedAt: string | null;
  fromCache: boolean;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
}

export const NOT_LOADED: Loaded<never> = { data: null, fetchedAt: null, fromCache: false, status: 'idle', error: null };

export async function readPath<T>(api: ConsoleApi, path: string): Promise<{ data: T; fetchedAt: string; fromCache: boolean }> {
  const read = await call(api, 'data:read', { path });
  return { data: read.data as T, fetchedAt: read.fetchedAt, fromCache: read.fromCache };
}

/** Reads every page of a petition list (the queue's superset from the server), oldest fetch time wins. */
export async function readAllPetitions(
  api: ConsoleApi,
  query: Record<string, string>,
  maxPages = 100,
): Promise<{ data: Petition[]; fetchedAt: string; fromCache: boolean }> {
  const pathFor = (page: number) =>
    `/api/petitions?${new URLSearchParams({ ...query, pageSize: String(PAGE_SIZE_MAX), page: String(page) })}`;
  const first = await readPath<PetitionList>(api, pathFor(1));
  const pages = Math.min(maxPages, Math.ceil(first.data.total / PAGE_SIZE_MAX));
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) => readPath<PetitionList>(api, pathFor(i + 2))),
  );
  const all = [first, ...rest];
  const fetchedAt = all.map((r) => r.fetchedAt).sort()[0] ?? first.fetchedAt;
  const seen = new Set<number>();
  const data = all.flatMap((r) => r.data.items).filter((p) => !seen.has(p.id) && (seen.add(p.id), true));
  return { data, fetchedAt, fromCache: all.some((r) => r.fromCache) };
}
