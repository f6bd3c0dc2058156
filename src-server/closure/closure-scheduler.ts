/**
 * Runs the closure rules on a timer in the real server. Runs never overlap: the route and the timer
 * share one in-flight run, so a burst of check-expired calls costs one pass over the table. With
 * several nodes on one database the timed pass runs once per interval across all of them: it takes
 * a lock that a node already running it holds (transaction-locks.ts), and skips when another node
 * recorded a pass less than most of an interval ago. The pass and its record share one transaction,
 * so a node that dies mid-pass leaves neither.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { closeExpiredPetitions, closeExpiredPetitionsIn, totalClosed } from './closure-service.ts';

const LAST_PASS_KEY = 'closure_last_pass_at';
/** A node's timer may fire a little early relative to another's: passes closer than this share an interval. */
const SAME_INTERVAL_SHARE = 0.8;

export interface ClosureRunner {
  /** Closes what is due now and returns how many petitions this call closed. */
  run(): Promise<number>;
  /** The timer's pass: as run(), unless another node has run it within this interval (then null). */
  runScheduled(intervalMs: number): Promise<number | null>;
}

/** What a closure pass needs: the database, counts written behind, cross-node locks and the clock. */
export type ClosureDeps = Pick<AppContext, 'db' | 'signatureCounts' | 'locks' | 'now'>;

export function createClosureRunner(context: ClosureDeps): ClosureRunner {
  let inFlight: Promise<number> | null = null;
  let scheduled: Promise<number | null> | null = null;

  async function scheduledPass(intervalMs: number): Promise<number | null> {
    await context.signatureCounts.settle();
    const now = context.now();
    return context.db.transaction().execute(async (trx) => {
      if (!(await context.locks.tryLock(trx, 'closure-pass', ''))) return null;
      const last = await trx.selectFrom('site_settings').select('value').where('key', '=', LAST_PASS_KEY).executeTakeFirst();
      if (last && now.getTime() - Date.parse(last.value) < intervalMs * SAME_INTERVAL_SHARE) return null;
      const closed = totalClosed(await closeExpiredPetitionsIn(trx, now));
      const stamp = now.toISOString();
      await trx
        .insertInto('site_settings')
        .values({ key: LAST_PASS_KEY, value: stamp, updated_at: stamp })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: stamp, updated_at: stamp }))
        .execute();
      return closed;
    });
  }

  return {
    runScheduled(intervalMs) {
      scheduled ??= (inFlight ?? Promise.resolve(0)).then(() => scheduledPass(intervalMs)).finally(() => {
        scheduled = null;
      });
      return scheduled;
    },
    run() {
      // The insufficient-signature rule reads stored counts, so pending ones are written first.
      inFlight ??= context.signatureCounts
        .settle()
        .then(() => closeExpiredPetitions(context.db, context.now()))
        .then(totalClosed)
        .finally(() => {
          inFlight = null;
        });
      return inFlight;
    },
  };
}

/** Starts the timed pass with the app (background-work.ts decides whether background work runs). */
export function startClosureScheduler(app: FastifyInstance, context: AppContext, runner: ClosureRunner): void {
  const tick = () => {
    runner
      .runScheduled(context.config.closureIntervalMs)
      .then((closed) => {
        if (closed) app.log.info({ closed }, 'closed expired petitions');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'closing expired petitions failed'));
  };
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    tick();
    timer = setInterval(tick, context.config.closureIntervalMs);
    // The timer alone must not keep a finished process alive.
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    timer = null;
  });
}
