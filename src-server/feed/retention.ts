/**
 * Events older than NOTIFICATION_RETENTION_MONTHS are deleted (docs/notifications.md#retention),
 * with what points at them (reads one by one). Once an hour on one node at a time, as the closure
 * pass does it (closure/closure-scheduler.ts): a node claims the interval in a short transaction
 * under a try-lock, recording when it did, and the others skip; the deletion then runs in small
 * transactions so requests keep flowing, and a node that dies half way leaves the rest to the next
 * interval (deleting what is old is idempotent).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/schema.ts';

export const FEED_RETENTION_INTERVAL_MS = 60 * 60 * 1000;
const LAST_PASS_KEY = 'feed_retention_last_pass_at';
/** Passes closer than this share an interval (timers on different nodes drift a little). */
const SAME_INTERVAL_SHARE = 0.8;
/** Events per deleting transaction. */
const DELETE_CHUNK = 2_000;

/** The instant `months` calendar months before `now` (UTC): older events are deleted. */
export function retentionCutoff(now: Date, months: number): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff;
}

/** Deletes every event recorded before the cutoff, a chunk per transaction; returns how many. */
export async function deleteEventsBefore(db: Kysely<Database>, cutoff: Date): Promise<number> {
  const stamp = cutoff.toISOString();
  let deleted = 0;
  for (;;) {
    const removed = await db.transaction().execute(async (trx) => {
      const ids = await trx
        .selectFrom('petition_events')
        .select('id')
        .where('created_at', '<', stamp)
        .orderBy('created_at')
        .limit(DELETE_CHUNK)
        .execute();
      if (!ids.length) return 0;
      await trx.deleteFrom('petition_events').where('id', 'in', ids.map((row) => row.id)).execute();
      return ids.length;
    });
    deleted += removed;
    if (removed < DELETE_CHUNK) return deleted;
  }
}

/** Claims this interval's pass for this node: false when another node holds it or ran it lately. */
async function claimPass(context: AppContext, now: Date, intervalMs: number): Promise<boolean> {
  return context.db.transaction().execute(async (trx) => {
    if (!(await context.locks.tryLock(trx, 'feed-retention', ''))) return false;
    const last = await trx.selectFrom('site_settings').select('value').where('key', '=', LAST_PASS_KEY).executeTakeFirst();
    if (last && now.getTime() - Date.parse(last.value) < intervalMs * SAME_INTERVAL_SHARE) return false;
    const value = now.toISOString();
    await trx
      .insertInto('site_settings')
      .values({ key: LAST_PASS_KEY, value, updated_at: value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: value }))
      .execute();
    return true;
  });
}

/** The timed pass: deletes what is past retention, unless another node ran it this interval (then null). */
export async function runRetentionPass(context: AppContext, intervalMs = FEED_RETENTION_INTERVAL_MS): Promise<number | null> {
  const now = context.now();
  if (!(await claimPass(context, now, intervalMs))) return null;
  return deleteEventsBefore(context.db, retentionCutoff(now, context.config.notificationRetentionMonths));
}

/** The hourly pass, from the app's start to its close (background-work.ts calls it where background jobs run). */
export function startFeedRetention(app: FastifyInstance, context: AppContext): void {
  if (!context.runBackgroundJobs) return;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    running ??= runRetentionPass(context)
      .then((deleted) => {
        if (deleted) app.log.info({ deleted }, 'deleted notification events past retention');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'deleting old notification events failed'))
      .finally(() => {
        running = null;
      });
  };
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, FEED_RETENTION_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
  });
}
