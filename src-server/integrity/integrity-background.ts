/**
 * The background work of signature integrity, started with the app on every node (each piece runs
 * on one node at a time by itself): the signing monitor every INTEGRITY_SCAN_INTERVAL_MS, and the
 * invalidation runner.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';

export function startIntegrityWork(app: FastifyInstance, context: AppContext): void {
  let scanning: Promise<void> | null = null;
  const scan = () => {
    scanning ??= context.integrity.monitor
      .scan()
      .then((result) => {
        if (result.alerted.length) context.chatDelivery.nudge();
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'signing monitor pass failed'))
      .finally(() => {
        scanning = null;
      });
  };
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    timer = setInterval(scan, context.config.integrity.scanIntervalMs);
    timer.unref();
    context.integrity.runner.start();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await scanning;
    await context.integrity.runner.stop();
  });
}
