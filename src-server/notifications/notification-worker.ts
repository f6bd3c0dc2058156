/** Runs outbox delivery in the background: on a timer, and straight after a staff action enqueues. */
import type { AppContext } from '../context.ts';
import { deliverDueNotifications, type DeliveryOptions } from './delivery.ts';

export const NOTIFICATION_POLL_MS = 5_000;

export interface NotificationWorker {
  start(): void;
  /** Asks for a delivery pass soon; a no-op while the worker is stopped. */
  nudge(): void;
  /** Stops the timer and waits for a pass in progress, so closing the app never cuts a write short. */
  stop(): Promise<void>;
}

export function createNotificationWorker(
  context: Pick<AppContext, 'db' | 'config' | 'now'>,
  options: DeliveryOptions & { intervalMs?: number; onError?: (error: unknown) => void } = {},
): NotificationWorker {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;

  function pass(): void {
    if (!timer) return;
    if (running) {
      again = true;
      return;
    }
    running = deliverDueNotifications(context, options)
      .then(() => undefined)
      .catch((error: unknown) => options.onError?.(error))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          pass();
        }
      });
  }

  return {
    start() {
      if (timer) return;
      timer = setInterval(pass, options.intervalMs ?? NOTIFICATION_POLL_MS);
      timer.unref();
      pass();
    },
    nudge() {
      if (timer) setImmediate(pass);
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      again = false;
      await running;
    },
  };
}
