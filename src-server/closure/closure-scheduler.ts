/**
 * Runs the closure rules on a timer in the real server. Runs never overlap: the route and the timer
 * share one in-flight run, so a burst of check-expired calls costs one pass over the table.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { closeExpiredPetitions, totalClosed } from './closure-service.ts';

export interface ClosureRunner {
  /** Closes what is due now and returns how many petitions this call closed. */
  run(): Promise<number>;
}

export function createClosureRunner(context: AppContext): ClosureRunner {
  let inFlight: Promise<number> | null = null;
  return {
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

export function startClosureScheduler(app: FastifyInstance, context: AppContext, runner: ClosureRunner): void {
  if (!context.runBackgroundJobs) return;
  const tick = () => {
    runner
      .run()
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
