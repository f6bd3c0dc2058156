/**
 * A small server-sent events reader over node:http, for tests and the live-stream benchmark:
 *
 *   const stream = await openEventStream(`${baseUrl}/api/site-status/events?petition=3`, { cookie });
 *   stream.status                                   // HTTP status of the answer
 *   const mark = stream.events.length;              // only events after this point:
 *   const event = await stream.next((e) => e.event === 'site' && e.data.maintenance === true, 5_000, mark);
 *   stream.events                                   // every event received so far, with its arrival time
 *   stream.close();
 */
import http from 'node:http';

export interface StreamEvent {
  event: string;
  data: unknown;
  /** performance.now() when it was parsed. */
  at: number;
}

export interface EventStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: StreamEvent[];
  /** Comment lines (heartbeats) received. */
  comments: number;
  /** Resolves once the stream has ended (by the server or by close()). */
  ended: Promise<void>;
  /** The first matching event at index `sinceIndex` (default 0: also those already received) or later; rejects after `timeoutMs`. */
  next(matches: (event: StreamEvent) => boolean, timeoutMs: number, sinceIndex?: number): Promise<StreamEvent>;
  close(): void;
}

/** `localAddress`: the loopback address to connect from (127.0.0.2 …), so one machine can play several clients. */
export function openEventStream(url: string, options: { cookie?: string; localAddress?: string; headers?: Record<string, string> } = {}): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, {
      agent: false,
      localAddress: options.localAddress,
      headers: { accept: 'text/event-stream', ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const events: StreamEvent[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let resolveEnded: () => void = () => undefined;
      const ended = new Promise<void>((done) => (resolveEnded = done));
      const stream: EventStream = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        events,
        comments: 0,
        ended,
        next(matches, timeoutMs, sinceIndex = 0) {
          return new Promise((found, fail) => {
            let checked = sinceIndex;
            const check = () => {
              for (; checked < events.length; checked++) {
                const event = events[checked]!;
                if (matches(event)) {
                  waiters.delete(check);
                  clearTimeout(timer);
                  found(event);
                  return;
                }
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`no matching event within ${timeoutMs} ms; received ${JSON.stringify(events.map((e) => [e.event, e.data]))}`));
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
        close() {
          request.destroy();
          resolveEnded();
        },
      };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) stream.comments += 1;
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data.push(line.slice(6));
          }
          if (data.length === 0) continue;
          const text = data.join('\n');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON: kept as text
          }
          events.push({ event, data: parsed, at: performance.now() });
        }
        for (const waiter of [...waiters]) waiter();
      });
      response.on('end', resolveEnded);
      response.on('close', resolveEnded);
      response.on('error', resolveEnded);
      resolve(stream);
    });
  });
}
