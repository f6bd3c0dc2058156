/**
 * How every node learns, within a second, that a petition left (or came back to) public view. On a
 * large site the petition list keeps pages and totals for a few seconds (petitions/petition-list.ts);
 * a hidden petition must not linger in them. Every moderation change writes a moderation_events row
 * (migration 0015), so the highest event id is a watermark: each node reads it (a primary-key lookup)
 * at most every WATERMARK_CHECK_MS while lists are being served, and forgets its kept pages when it
 * moved. The node that made the change moves its own mark at once (`advance`).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export const WATERMARK_CHECK_MS = 250;

export interface ModerationWatermark {
  /** The latest moderation event id this node knows of, re-read when the last read is stale. */
  current(): Promise<number>;
  /** This node just committed a moderation change: the next current() reads afresh. */
  advance(): void;
}

export function createModerationWatermark(db: Kysely<Database>, checkMs = WATERMARK_CHECK_MS): ModerationWatermark {
  let known = 0;
  let readAt = -Infinity;
  let reading: Promise<number> | null = null;

  const read = () =>
    (reading ??= db
      .selectFrom('moderation_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst()
      .then((row) => {
        known = Number(row?.id ?? 0);
        readAt = performance.now();
        return known;
      })
      .finally(() => {
        reading = null;
      }));

  return {
    async current() {
      if (performance.now() - readAt < checkMs) return known;
      return read();
    },
    advance() {
      readAt = -Infinity;
    },
  };
}
