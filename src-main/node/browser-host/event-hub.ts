/**
 * Server-sent events for the console:browser bridge: the runtime's EventSink writes every contract
 * event to each open page connection (normally one).
 */
import type { ServerResponse } from 'node:http';
import { IPC_EVENTS } from '../../../src-shared/console/ipc-contract.ts';
import type { EventSink } from '../ports.ts';

export interface EventHub {
  sink: EventSink;
  attach(response: ServerResponse): void;
  connections(): number;
  close(): void;
}

const KEEPALIVE_MS = 25_000;

export function createEventHub(onError: (error: unknown) => void = () => undefined): EventHub {
  const clients = new Set<ServerResponse>();
  const keepalive = setInterval(() => {
    for (const client of clients) client.write(': keepalive\n\n');
  }, KEEPALIVE_MS);
  keepalive.unref();
  return {
    sink: {
      emit(event, payload) {
        // Parse on the way out, as the contract asks of the sender.
        const parsed = IPC_EVENTS[event].safeParse(payload);
        if (!parsed.success) {
          onError(parsed.error);
          return;
        }
        const line = `data: ${JSON.stringify({ event, payload: parsed.data })}\n\n`;
        for (const client of clients) client.write(line);
      },
    },
    attach(response) {
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      response.write(': connected\n\n');
      clients.add(response);
      response.on('close', () => clients.delete(response));
    },
    connections: () => clients.size,
    close() {
      clearInterval(keepalive);
      for (const client of clients) client.end();
      clients.clear();
    },
  };
}
