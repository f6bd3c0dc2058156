/**
 * The band of a count as the lists' indexes hold it (docs/operations.md#signature-bands): how many of
 * SIGNATURE_BAND_BOUNDS it has reached. PostgreSQL's generated column (migration 0022) and SQLite's
 * triggers (0024) compute the same from the same bounds, and a larger count never has a smaller band,
 * so `count >= n` implies `band >= signatureBand(n)`: a condition an index on the band can serve.
 */
import { SIGNATURE_BAND_BOUNDS } from '../db/migrations/0022_signature_bands.ts';

export function signatureBand(count: number): number {
  let band = 0;
  while (band < SIGNATURE_BAND_BOUNDS.length && SIGNATURE_BAND_BOUNDS[band]! <= count) band += 1;
  return band;
}
