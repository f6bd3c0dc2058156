/**
 * Encrypts push messages on a thread of their own (encrypt-worker.ts), so that sending thousands of
 * them never holds up the event loop that answers API requests (`npm run bench:push` measures the
 * calls' p99 meanwhile). One thread per server, started on first use and not keeping the process
 * alive; if it dies, the messages it held fail (they are retried) and the next message starts a new one.
 */
import { Worker } from 'node:worker_threads';
import type { EncryptAnswer, EncryptRequest } from './encrypt-worker.ts';

/** The thread went away with the message: worth sending again (unlike keys that cannot be encrypted to). */
export class EncryptionThreadStopped extends Error {}

export interface EncryptedRequest {
  headers: Record<string, string>;
  body: Uint8Array;
}

export interface EncryptionPool {
  encrypt(request: Omit<EncryptRequest, 'id'>): Promise<EncryptedRequest>;
  close(): Promise<void>;
}

export function createEncryptionPool(): EncryptionPool {
  let worker: Worker | null = null;
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: EncryptedRequest) => void; reject: (error: Error) => void }>();

  function failAll(error: Error): void {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  }

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(new URL('./encrypt-worker.ts', import.meta.url));
    started.unref();
    started.on('message', (answer: EncryptAnswer) => {
      const waiter = pending.get(answer.id);
      if (!waiter) return;
      pending.delete(answer.id);
      if ('error' in answer) waiter.reject(new Error(answer.error));
      else waiter.resolve({ headers: answer.headers, body: answer.body });
    });
    started.on('error', (error) => failAll(new EncryptionThreadStopped(error.message)));
    started.on('exit', () => {
      if (worker === started) worker = null;
      failAll(new EncryptionThreadStopped('the push encryption thread stopped'));
    });
    worker = started;
    return started;
  }

  return {
    encrypt(request) {
      const id = nextId++;
      return new Promise<EncryptedRequest>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        thread().postMessage({ ...request, id } satisfies EncryptRequest);
      });
    },
    async close() {
      const current = worker;
      worker = null;
      if (current) await current.terminate();
    },
  };
}
