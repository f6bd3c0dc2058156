/**
 * Delivers the chat queue in the background: on a timer, and straight after a staff action queues a
 * message. One per server, made with the context (context.ts) and started and stopped with the app
 * (background-work.ts); until started, `nudge` does nothing, so request-level tests send nothing.
 */
import type { AppContext } from '../context.ts';
import { deliverDueChatMessages, type DeliveryOptions } from './chat-delivery.ts';

export const CHAT_DELIVERY_POLL_MS = 5_000;

/** Where a running worker reports: a message not delivered (warn) and a pass that failed (error). */
export interface ChatDeliveryLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface ChatDeliveryWorker {
  start(log?: ChatDeliveryLog): void;
  /** Asks for a delivery pass soon; a no-op while the worker is stopped. */
  nudge(): void;
  /** Stops the timer and waits for a pass in progress, so closing the app never cuts a write short. */
  stop(): Promise<void>;
}

export function createChatDeliveryWorker(
  context: Pick<AppContext, 'db' | 'config' | 'now'>,
  options: Omit<DeliveryOptions, 'log'> & { intervalMs?: number } = {},
): ChatDeliveryWorker {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let log: ChatDeliveryLog | undefined;

  function pass(): void {
    if (!timer) return;
    if (running) {
      again = true;
      return;
    }
    running = deliverDueChatMessages(context, { ...options, log })
      .then(() => undefined)
      .catch((error: unknown) => log?.error({ err: error }, 'chat message delivery pass failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          pass();
        }
      });
  }

  return {
    start(reportTo) {
      if (timer) return;
      log = reportTo;
      timer = setInterval(pass, options.intervalMs ?? CHAT_DELIVERY_POLL_MS);
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
