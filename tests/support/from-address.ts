/**
 * One HTTP request from a chosen loopback source address (127.0.0.2, 127.0.0.3 …: Linux routes the
 * whole 127.0.0.0/8 to this machine), so a test can be several clients at once: one flooding, another
 * going about its business. Every request opens a connection of its own (no keep-alive).
 */
import http from 'node:http';

export interface PlainResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json(): any;
}

export function requestFrom(
  localAddress: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<PlainResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? 'GET', headers: init.headers, localAddress, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json: () => JSON.parse(text) });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(init.body);
  });
}
