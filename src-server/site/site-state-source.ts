/**
 * Where the live stream reads the site's state. One small function on purpose: it reads the stored
 * settings row and the terms (not this process's cache), so with several server nodes sharing one
 * database a change made on another node is picked up on the next tick.
 */
import type { PetitionStatus } from '../../src-shared/domain/constants.ts';
import type { PetitionCount, SiteStatus } from '../../src-shared/domain/schemas.ts';
import { isInSession } from '../../src-shared/rules/terms.ts';
import type { Db } from '../db/schema.ts';
import type { SignatureCounts } from '../petitions/signature-counts.ts';
import type { SiteSettings } from './site-settings.ts';
import { publiclyVisible } from '../petitions/public-visibility.ts';
import { listTerms } from '../terms/terms-repository.ts';

/** Ids per query, well under SQLite's and PostgreSQL's parameter limits. */
const IDS_PER_QUERY = 500;

export async function readSiteState(db: Db, settings: SiteSettings, now: Date): Promise<SiteStatus> {
  const [maintenance, terms] = await Promise.all([settings.readMaintenance(db), listTerms(db, now)]);
  return { maintenance, inSession: isInSession(terms, now) };
}

/** Live counts (stored plus this process's pending deltas) of the petitions open pages watch; missing and moderated ids are left out. */
export async function readPetitionCounts(db: Db, counts: SignatureCounts, ids: readonly number[]): Promise<PetitionCount[]> {
  const result: PetitionCount[] = [];
  for (let start = 0; start < ids.length; start += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom('petitions')
      .select(['id', 'signature_count', 'status'])
      .where('id', 'in', ids.slice(start, start + IDS_PER_QUERY))
      // A hidden or rejected petition's count is not public: its watchers get nothing more.
      .where(publiclyVisible)
      .execute();
    for (const row of rows) {
      result.push({ id: row.id, signatures: counts.live(row.id, row.signature_count), status: row.status as PetitionStatus });
    }
  }
  return result;
}
