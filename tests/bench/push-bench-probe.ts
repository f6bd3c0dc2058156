/**
 * The ordinary API calls of `npm run bench:push`, on a thread of their own, so their latencies are
 * the server's and not the wait behind the local push service decrypting messages on the main thread.
 * Calls the given paths in turn with a pause between, records each call under the current phase,
 * and answers the latencies when told to stop.
 */
import { parentPort, workerData } from 'node:worker_threads';

const { base, cookie, paths, pauseMs } = workerData as { base: string; cookie: string; paths: string[]; pauseMs: number };
const latencies: Record<string, number[]> = {};
let phase = 'before';
/** Answers other than 2xx, by status (e.g. 429 when the pace passes a per-client rate limit). */
const failures: Record<number, number> = {};
let running = true;

parentPort?.on('message', (message: { phase?: string; stop?: boolean }) => {
  if (message.phase) phase = message.phase;
  if (message.stop) running = false;
});

for (let index = 0; running; index += 1) {
  const started = performance.now();
  const response = await fetch(`${base}${paths[index % paths.length]}`, { headers: { cookie } });
  await response.arrayBuffer();
  (latencies[phase] ??= []).push(performance.now() - started);
  if (!response.ok) failures[response.status] = (failures[response.status] ?? 0) + 1;
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
}
parentPort?.postMessage({ latencies, failures });
