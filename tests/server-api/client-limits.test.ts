/**
 * Limits per client over real HTTP (docs/limits.md), with several loopback source addresses playing
 * several clients: one client's flood of sign-in starts, searches, event streams or connections is
 * turned away (429 with Retry-After) while another address signs in through the real provider,
 * reads and streams as usual. X-Forwarded-For counts only when TRUST_PROXY names the proxy.
 * Timeouts: a trickled body, trickled headers and an idle keep-alive socket are closed in time.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER, CSRF_HEADER_VALUE, LIVE_EVENTS_PATH } from '../../src-shared/domain/constants.ts';
import { LIMIT_MESSAGES, RATE_LIMIT_MESSAGES, RATE_LIMITS } from '../../src-shared/rules/limits.ts';
import { CookieJar, expectAppLanding, expectProviderPage, follow, pressPersona } from '../server-auth/browser.ts';
import { requestFrom } from '../support/from-address.ts';
import { openEventStream, type EventStream } from '../support/sse-client.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';

const FLOODER = '127.0.0.1';

/** Runs `count` calls, `parallel` at a time, and returns their answers in order. */
async function flood<T>(count: number, parallel: number, call: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let index = next++; index < count; index = next++) results[index] = await call(index);
    }),
  );
  return results;
}

/** The whole web sign-in as a client at `address`: our server sees only that address; the provider is just the provider. */
async function signInFrom(stack: Stack, address: string, persona: string, headers: Record<string, string> = {}): Promise<string> {
  const login = await requestFrom(address, `${stack.baseUrl}/api/auth/roblox/login`, { headers });
  expect(login.status, login.text).toBe(200);
  const jar = new CookieJar();
  const page = expectProviderPage(await follow(jar, new URL(login.json().auth_url as string), stack.baseUrl));
  const back = expectAppLanding(await pressPersona(jar, page, persona, stack.baseUrl));
  const callback = await requestFrom(address, `${stack.baseUrl}/api/auth/roblox/callback`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE, origin: stack.baseUrl },
    body: JSON.stringify({ code: back.searchParams.get('code'), state: back.searchParams.get('state') }),
  });
  expect(callback.status, callback.text).toBe(200);
  const cookie = String(callback.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
  expect(cookie).toContain('=');
  return cookie;
}

describe('one client flooding, by socket address (no TRUST_PROXY)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ serveWebApp: false });
    await seedTerm(stack.context);
    await seedPetition(stack.context, { title: 'Fund the village library' });
  });
  afterAll(async () => stack?.close());

  it('turns away only the client that floods sign-in; another address signs in and reads as usual', async () => {
    const limit = RATE_LIMITS.signIn.max;
    // X-Forwarded-For is not believed without TRUST_PROXY: a different one on every call changes nothing.
    const answers = await flood(limit + 40, 20, (i) =>
      requestFrom(FLOODER, `${stack.baseUrl}/api/auth/roblox/login`, { headers: { 'x-forwarded-for': `10.1.${i >> 8}.${i & 255}` } }),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(limit);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(40);
    for (const answer of refused) {
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
      expect(answer.json()).toMatchObject({ status: 429, detail: RATE_LIMIT_MESSAGES.signIn });
    }

    const cookie = await signInFrom(stack, '127.0.0.2', 'Citizen');
    const session = await requestFrom('127.0.0.2', `${stack.baseUrl}/api/auth/session`, { headers: { cookie } });
    expect(session.json().user).toMatchObject({ id: '2001' });
    const list = await requestFrom('127.0.0.2', `${stack.baseUrl}/api/petitions?search=library`);
    expect(list.status).toBe(200);
    expect(list.json().total).toBe(1);
    // Still refused for the flooder alone.
    expect((await requestFrom(FLOODER, `${stack.baseUrl}/api/auth/roblox/login`)).status).toBe(429);
  }, 60_000);

  it('limits anonymous searches per address and signed-in searches per user; plain lists have their own limit', async () => {
    const limit = RATE_LIMITS.search.max;
    const answers = await flood(limit + 10, 10, () => requestFrom('127.0.0.3', `${stack.baseUrl}/api/petitions?search=village`));
    const refused = answers.filter((a) => a.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(10);
    expect(refused[0]!.json().detail).toBe(RATE_LIMIT_MESSAGES.search);
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    // The same address: a plain list is another limit; another address searches freely.
    expect((await requestFrom('127.0.0.3', `${stack.baseUrl}/api/petitions`)).status).toBe(200);
    expect((await requestFrom('127.0.0.4', `${stack.baseUrl}/api/petitions?search=village`)).status).toBe(200);
    // A signed-in person on the flooding address is counted as themselves.
    const { token } = await stack.context.sessions.create('2001', 'web');
    const signedIn = await requestFrom('127.0.0.3', `${stack.baseUrl}/api/petitions?search=village`, { headers: { cookie: `${stack.context.cookie.name}=${token}` } });
    expect(signedIn.status).toBe(200);
  }, 60_000);
});

describe('event streams and connections per client', () => {
  let stack: Stack;
  const streams: EventStream[] = [];
  const open = async (address: string, cookie?: string) => {
    const stream = await openEventStream(`${stack.baseUrl}${LIVE_EVENTS_PATH}`, { localAddress: address, cookie });
    streams.push(stream);
    return stream;
  };
  beforeAll(async () => {
    stack = await startStack({ serveWebApp: false, config: { limits: { streamsPerClient: 3, streamsPerUser: 2, streamsTotal: 8, connectionsPerClient: 12 } } });
  });
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await stack?.close();
  });

  it('caps streams per address, per user and in total, while other clients still connect', async () => {
    for (let i = 0; i < 3; i += 1) expect((await open(FLOODER)).status).toBe(200);
    const over = await open(FLOODER);
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await open('127.0.0.2')).status).toBe(200);

    await stack.context.users.upsert({ id: '2001', username: 'citizen', displayName: 'Citizen', avatarUrl: null, citizenRank: 1, governmentRank: 0 });
    const { token } = await stack.context.sessions.create('2001', 'web');
    const cookie = `${stack.context.cookie.name}=${token}`;
    expect((await open('127.0.0.4', cookie)).status).toBe(200);
    expect((await open('127.0.0.5', cookie)).status).toBe(200);
    expect((await open('127.0.0.6', cookie)).status).toBe(429);

    // 3 + 1 + 2 open; two more fill the total of 8, and the next, from a fresh address, is 503.
    expect((await open('127.0.0.7')).status).toBe(200);
    expect((await open('127.0.0.8')).status).toBe(200);
    const full = await open('127.0.0.9');
    expect(full.status).toBe(503);

    // A stream that ends gives its slot back.
    streams[0]!.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await open(FLOODER)).status).toBe(200);
  });

  it('closes a client\'s connections over its share at once; another address is served', async () => {
    const sockets: net.Socket[] = [];
    const closedEarly: boolean[] = [];
    const port = Number(new URL(stack.baseUrl).port);
    // The flooder already holds 3 streams; 12 connections is its share.
    for (let i = 0; i < 12; i += 1) {
      const socket = net.connect({ host: '127.0.0.1', port, localAddress: FLOODER });
      await new Promise((resolve) => socket.once('connect', resolve));
      const index = closedEarly.push(false) - 1;
      socket.once('close', () => (closedEarly[index] = true));
      sockets.push(socket);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Those past the share were closed by the server without a word.
    expect(closedEarly.filter(Boolean).length).toBeGreaterThanOrEqual(3);
    expect(closedEarly.filter((closed) => !closed).length).toBeLessThanOrEqual(12 - 3);
    expect((await requestFrom('127.0.0.3', `${stack.baseUrl}/healthz`)).status).toBe(200);
    for (const socket of sockets) socket.destroy();
    streams.splice(0).forEach((stream) => stream.close());
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await requestFrom(FLOODER, `${stack.baseUrl}/healthz`)).status).toBe(200);
  });
});

describe('behind a proxy named in TRUST_PROXY', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ serveWebApp: false, config: { limits: { trustProxy: ['loopback'], rates: { ...RATE_LIMITS, signIn: { max: 5, windowMs: 60_000 } } } } });
  });
  afterAll(async () => stack?.close());

  it('counts the client the proxy names in X-Forwarded-For, not the proxy', async () => {
    const flooder = { 'x-forwarded-for': '203.0.113.9' };
    const answers = await flood(12, 4, () => requestFrom(FLOODER, `${stack.baseUrl}/api/auth/roblox/login`, { headers: flooder }));
    expect(answers.map((a) => a.status).filter((s) => s === 429)).toHaveLength(7);
    // The same proxy, another client: signs in normally.
    const cookie = await signInFrom(stack, FLOODER, 'Citizen', { 'x-forwarded-for': '198.51.100.4' });
    expect(cookie).toMatch(/^petitions_session=/);
  }, 60_000);
});

describe('timeouts', () => {
  let stack: Stack;
  let port = 0;
  beforeAll(async () => {
    stack = await startStack({ serveWebApp: false, config: { limits: { headersTimeoutMs: 1_000, requestTimeoutMs: 3_000, keepAliveTimeoutMs: 1_500 } } });
    port = Number(new URL(stack.baseUrl).port);
  });
  afterAll(async () => stack?.close());

  /** Writes `head`, then one byte of `trickle` every `everyMs`, and resolves with how long the server took to close. */
  function trickle(head: string, dribble: string, everyMs: number): Promise<{ closedAfterMs: number; answer: string }> {
    return new Promise((resolve) => {
      const started = performance.now();
      const socket = net.connect({ host: '127.0.0.1', port });
      let answer = '';
      let sent = 0;
      const timer = setInterval(() => {
        if (!socket.destroyed && sent < dribble.length) socket.write(dribble[sent++]!);
      }, everyMs);
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('error', () => {});
      socket.on('close', () => {
        clearInterval(timer);
        resolve({ closedAfterMs: performance.now() - started, answer });
      });
      socket.write(head);
      // Give up (and fail the assertion) long after any timeout should have acted.
      setTimeout(() => socket.destroy(), 20_000).unref();
    });
  }

  it('closes a body trickled one byte at a time within the request timeout', async () => {
    const head = `POST /api/auth/roblox/callback HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n${CSRF_HEADER}: ${CSRF_HEADER_VALUE}\r\nContent-Length: 60000\r\n\r\n`;
    const { closedAfterMs, answer } = await trickle(head, 'x'.repeat(1_000), 300);
    // 3 s of request timeout, checked every second; generous margin for a shared machine.
    expect(closedAfterMs).toBeLessThan(9_000);
    expect(closedAfterMs).toBeGreaterThan(2_500);
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
  }, 30_000);

  it('closes headers trickled one byte at a time within the headers timeout', async () => {
    const { closedAfterMs } = await trickle(`GET /api/petitions HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`, 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 200);
    expect(closedAfterMs).toBeLessThan(6_000);
  }, 30_000);

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const { closedAfterMs, answer } = await trickle(`GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`, '', 1_000);
    expect(answer).toContain('HTTP/1.1 200');
    expect(closedAfterMs).toBeLessThan(6_000);
  }, 30_000);
});

describe('messages', () => {
  it('has a text for every limit the server can answer with', () => {
    for (const name of Object.keys(RATE_LIMITS) as (keyof typeof RATE_LIMITS)[]) expect(RATE_LIMIT_MESSAGES[name]).toMatch(/\w/);
    expect(LIMIT_MESSAGES.streamsPerClient).toMatch(/tabs/);
  });
});
