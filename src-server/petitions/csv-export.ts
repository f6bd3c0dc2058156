/**
 * CSV of a filtered petition list. The matching ids are read once (a consistent order), then rows
 * are fetched in small chunks as the client reads, so a slow download never holds the database.
 */
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { SortOption } from '../../src-shared/domain/constants.ts';
import type { SqlDialectName } from '../db/dialect.ts';
import type { Database } from '../db/schema.ts';
import type { SignatureCounts } from './signature-counts.ts';
import { listPetitionIds, type PetitionFilters } from './petition-queries.ts';

/** A spreadsheet of more rows than this is not a petition list any more; it is a data dump. */
export const CSV_MAX_ROWS = 50_000;
const CHUNK_SIZE = 500;

export const CSV_COLUMNS = ['id', 'title', 'status', 'signatures', 'created', 'term', 'tags', 'url'] as const;

/** Spreadsheets run cells that start with these as formulas (CSV injection). */
const FORMULA_PREFIX = /^[=+\-@\t\r]/;

export function csvCell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (FORMULA_PREFIX.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly (string | number | null)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

export interface CsvExportRequest {
  db: Kysely<Database>;
  dialect: SqlDialectName;
  filters: PetitionFilters;
  sort: SortOption | undefined;
  /** The site's own origin, for the url column. */
  origin: string;
  counts: Pick<SignatureCounts, 'live'>;
}

async function* petitionCsvLines(
  db: Kysely<Database>,
  ids: readonly number[],
  termNames: ReadonlyMap<number, string>,
  origin: string,
  counts: Pick<SignatureCounts, 'live'>,
): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS);
  for (let start = 0; start < ids.length; start += CHUNK_SIZE) {
    const chunk = ids.slice(start, start + CHUNK_SIZE);
    const rows = await db
      .selectFrom('petitions')
      .select(['id', 'title', 'status', 'signature_count', 'created_at', 'term_id', 'tags'])
      .where('id', 'in', chunk)
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    let text = '';
    for (const id of chunk) {
      // A petition deleted since the id list was read is simply left out.
      const row = byId.get(id);
      if (!row) continue;
      const tags = (JSON.parse(row.tags) as string[]).join('; ');
      const term = row.term_id === null ? '' : (termNames.get(row.term_id) ?? '');
      text += csvLine([row.id, row.title, row.status, counts.live(row.id, row.signature_count), row.created_at, term, tags, `${origin}/petition/${row.id}`]);
    }
    yield text;
  }
}

/**
 * Reads the matching ids before answering, so a failure there is still an ordinary error reply;
 * the rows themselves follow as the client reads the stream.
 */
export async function petitionCsvStream(request: CsvExportRequest): Promise<Readable> {
  const { db, dialect, filters, sort, origin, counts } = request;
  const ids = await listPetitionIds(db, dialect, filters, sort, CSV_MAX_ROWS);
  const terms = await db.selectFrom('terms').select(['id', 'name']).execute();
  const termNames = new Map(terms.map((term) => [term.id, term.name]));
  return Readable.from(petitionCsvLines(db, ids, termNames, origin, counts));
}
