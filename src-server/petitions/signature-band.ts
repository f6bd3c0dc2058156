/**
 * The band of a count as the lists' indexes hold it (docs/operations.md#signature-bands): how many of
 * SIGNATURE_BAND_BOUNDS it has reached. PostgreSQL's generated column and SQLite's triggers (both as
 * migration 0026 last wrote them) compute the same from the same bounds, and a larger count never has a
 * smaller band, so `count >= n` implies `band >= signatureBand(n)`: a condition an index on the band can serve.
 */
import { SIGNATURE_BAND_BOUNDS } from '../db/migrations/0026_band_bounds.ts';

export function signatureBand(count: number): number {
  let band = 0;
  while (band < SIGNATURE_BAND_BOUNDS.length && SIGNATURE_BAND_BOUNDS[band]! <= count) band += 1;
  return band;
}
