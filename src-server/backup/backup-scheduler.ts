/**
 * Scheduled backups in the server (docs/operations.md#scheduled-backups): with BACKUP_DIR set, a
 * backup every BACKUP_INTERVAL_HOURS, the newest BACKUP_KEEP kept. With several nodes on one
 * database one node takes each backup, as the closure pass does (closure-scheduler.ts): it holds a
 * lock for the whole backup and records the time of the last one in site_settings; the others skip
 * while the lock is held or the last backup is recent. On SQLite one process owns the database, so
 * there is nothing to share and no transaction is held (it would stall the one connection).
 * Each node checks often (every quarter interval, at most every 15 minutes) so a restart does not
 * push the next backup a whole interval away.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/schema.ts';
import { pruneScheduledBackups, scheduledBackupName } from './backup-files.ts';
import { writeBackup, type BackupSource, type WrittenBackup } from './write-backup.ts';
import path from 'node:path';
import fs from 'node:fs';

const LAST_BACKUP_KEY = 'backup_last_run_at';
const MAX_CHECK_EVERY_MS = 15 * 60_000;
/** Node timers take at most 2^31-1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ScheduledBackupOutcome {
  written: WrittenBackup;
  pruned: string[];
}

export interface BackupScheduler {
  /** One check: takes a backup if one is due and no other node is taking it; null when it did not. */
  runIfDue(): Promise<ScheduledBackupOutcome | null>;
}

export function checkEveryMs(intervalMs: number): number {
  return Math.min(MAX_TIMER_MS, Math.max(1_000, Math.min(MAX_CHECK_EVERY_MS, intervalMs / 4)));
}

export function createBackupScheduler(
  context: Pick<AppContext, 'db' | 'dialect' | 'locks' | 'now'>,
  options: { dir: string; intervalMs: number; keep: number; source: BackupSource },
): BackupScheduler {
  // Due a little early, so checks at a fixed period land near the interval on average.
  const dueAfterMs = options.intervalMs - checkEveryMs(options.intervalMs) / 2;
  let inFlight: Promise<ScheduledBackupOutcome | null> | null = null;

  async function takeIfDue(db: Db): Promise<ScheduledBackupOutcome | null> {
    const now = context.now();
    const last = await db.selectFrom('site_settings').select('value').where('key', '=', LAST_BACKUP_KEY).executeTakeFirst();
    if (last && now.getTime() - Date.parse(last.value) < dueAfterMs) return null;
    fs.mkdirSync(options.dir, { recursive: true });
    const written = await writeBackup(options.source, path.join(options.dir, scheduledBackupName(context.dialect, now)));
    const stamp = now.toISOString();
    await db
      .insertInto('site_settings')
      .values({ key: LAST_BACKUP_KEY, value: stamp, updated_at: stamp })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: stamp, updated_at: stamp }))
      .execute();
    return { written, pruned: pruneScheduledBackups(options.dir, options.keep) };
  }

  function pass(): Promise<ScheduledBackupOutcome | null> {
    if (context.dialect === 'sqlite') return takeIfDue(context.db);
    return context.db.transaction().execute(async (trx) => {
      if (!(await context.locks.tryLock(trx, 'scheduled-backup', ''))) return null;
      return takeIfDue(trx);
    });
  }

  return {
    runIfDue() {
      inFlight ??= pass().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },
  };
}

export function startBackupScheduler(app: FastifyInstance, scheduler: BackupScheduler, intervalMs: number): void {
  const tick = () => {
    scheduler
      .runIfDue()
      .then((outcome) => {
        if (outcome) app.log.info({ file: outcome.written.file, bytes: outcome.written.bytes, pruned: outcome.pruned }, `backup written: ${outcome.written.summary.description}`);
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'the scheduled backup failed; the next check tries again'));
  };
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, checkEveryMs(intervalMs));
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
  });
}
