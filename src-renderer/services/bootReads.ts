/**
 * The first page's main read, started by the entry beside the page's own chunk instead of after it: a
 * petition's page asks for the petition while its code is still on the way, one round trip less before
 * the petition shows (docs/operations.md#javascript-weight, "the first page's read").
 *
 * Only the page the visitor landed on, only once, and only for a few seconds: a later visit to the page
 * (or a reload after a change) reads afresh, so nothing stale is ever shown from here.
 */
import { matchAppPath } from '../../src-shared/domain/app-paths.ts';
import type { PetitionDetail } from '../../src-shared/domain/schemas.ts';
import { apiCaller } from './apiCaller.ts';
import { apiGetPetition } from '../../src-shared/api/visitor-calls.ts';

/** Older than this, the read is not used: the page came up too late for it to be the landing page's. */
const BOOT_READ_FRESH_MS = 10_000;

interface BootRead {
  key: string;
  startedAt: number;
  result: Promise<unknown>;
}

let bootRead: BootRead | null = null;

const petitionKey = (id: number) => `petition:${id}`;

/** Starts the read the page at `pathname` renders first, when it has one worth starting early. */
export function startBootRead(pathname: string): void {
  const match = matchAppPath(pathname);
  if (match.kind !== 'petition' || match.id === null) return;
  const result = apiGetPetition(apiCaller, match.id);
  // The page reports a failure when it takes the read; one never taken must not be an unhandled rejection.
  result.catch(() => undefined);
  bootRead = { key: petitionKey(match.id), startedAt: performance.now(), result };
}

function takeBootRead(key: string): Promise<unknown> | null {
  const read = bootRead;
  bootRead = null;
  if (!read || read.key !== key || performance.now() - read.startedAt > BOOT_READ_FRESH_MS) return null;
  return read.result;
}

/** The petition as the landing read got it, or a new read. */
export function readPetition(id: number): Promise<PetitionDetail> {
  return (takeBootRead(petitionKey(id)) as Promise<PetitionDetail> | null) ?? apiGetPetition(apiCaller, id);
}
