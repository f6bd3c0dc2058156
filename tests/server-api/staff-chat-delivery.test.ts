/** Chat queue delivery against a real local HTTP server that answers like a Discord webhook. */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src-server/app.ts';
import { loadConfig } from '../../src-server/config.ts';
import { createAppContext } from '../../src-server/context.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { deliverDueChatMessages } from '../../src-server/staff-chat/chat-delivery.ts';
import { DiscordWebhookBody } from '../../src-server/staff-chat/discord-message.ts';
import { createChatDeliveryWorker } from '../../src-server/staff-chat/chat-delivery-worker.ts';
import { enqueueChatMessage } from '../../src-server/staff-chat/chat-queue.ts';
import { chatBackoffDelayMs, DEFAULT_RETRY_POLICY } from '../../src-server/staff-chat/retry-policy.ts';
import { parseRetryAfter } from '../../src-shared/rules/retry.ts';
import { petitionEventMessage } from '../../src-server/staff-chat/staff-event-messages.ts';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { ROLE_PROFILES, startTestApi, type TestApi } from '../support/api-harness.ts';
import { chatMessageRows, RESPONSE_BODY, seedStaffPetition } from './staff-fixtures.ts';

interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Never answer: the sender must time out. */
  hang?: boolean;
}

interface FakeDiscord {
  url: string;
  received: { path: string; contentType: string | undefined; body: Record<string, unknown> }[];
  /** Answers for the next requests, in order; after them every request gets 204 No Content. */
  answers: Answer[];
  close(): Promise<void>;
}

async function startFakeDiscord(): Promise<FakeDiscord> {
  const received: FakeDiscord['received'] = [];
  const answers: Answer[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ path: req.url ?? '', contentType: req.headers['content-type'], body: JSON.parse(data) as Record<string, unknown> });
      const answer = answers.shift() ?? { status: 204 };
      if (answer.hang) return;
      res.writeHead(answer.status ?? 204, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api/webhooks/1234/secret-token`,
    received,
    answers,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const T0 = new Date('2026-06-01T12:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const fixedRandom = () => 0.5;

let discord: FakeDiscord;
let api: TestApi;

beforeAll(async () => {
  discord = await startFakeDiscord();
  api = await startTestApi({ discordWebhookUrl: discord.url });
});
afterAll(async () => {
  await api.close();
  await discord.close();
});
afterEach(async () => {
  // Each test starts with an empty chat queue and a clean script.
  await api.context.db.deleteFrom('chat_messages').execute();
  discord.received.length = 0;
  discord.answers.length = 0;
  api.setNow(null);
});

async function enqueueTest(title: string): Promise<number> {
  return enqueueChatMessage(api.context.db, { event: 'staff.message', message: { embeds: [{ title }] }, now: T0 });
}

describe('delivery', () => {
  it('sends a staff action’s message to the webhook and marks it sent', async () => {
    api.setNow(T0);
    const minister = await api.signInAs('rank6');
    const id = await seedStaffPetition(api, { title: 'Free bus passes' });
    const action = await api.request({ method: 'POST', url: `/api/petitions/${id}/government-response`, payload: RESPONSE_BODY, cookie: minister });
    expect(action.statusCode).toBe(200);
    const report = await deliverDueChatMessages(api.context);
    expect(report).toEqual({ sent: 1, retrying: 0, failed: 0, recorded: 0 });
    expect(discord.received).toHaveLength(1);
    const [request] = discord.received;
    expect(request?.path).toBe('/api/webhooks/1234/secret-token');
    expect(request?.contentType).toBe('application/json');
    expect(request?.body.allowed_mentions).toEqual({ parse: [] });
    const embeds = request?.body.embeds as { title: string; timestamp: string; footer: { text: string } }[];
    expect(embeds[0]?.title).toBe('Government response added: Free bus passes');
    expect(embeds[0]?.timestamp).toBe(T0.toISOString());
    expect(embeds[0]?.footer.text).toContain('Cabinet Minister');
    const [row] = await chatMessageRows(api);
    expect(row).toMatchObject({ state: 'sent', attempts: 1, sent_at: T0.toISOString(), last_error: null });
    // Sent rows are never sent again.
    expect(await deliverDueChatMessages(api.context)).toEqual({ sent: 0, retrying: 0, failed: 0, recorded: 0 });
  });

  it('honours 429 Retry-After and holds back the rest of the batch', async () => {
    await enqueueTest('first');
    await enqueueTest('second');
    discord.answers.push({ status: 429, headers: { 'retry-after': '3', 'content-type': 'application/json' }, body: '{"message":"You are being rate limited.","retry_after":3,"global":false}' });
    api.setNow(T0);
    expect(await deliverDueChatMessages(api.context)).toMatchObject({ sent: 0, retrying: 1 });
    expect(discord.received).toHaveLength(1);
    const [first, second] = await chatMessageRows(api);
    expect(first).toMatchObject({ state: 'pending', attempts: 1, last_error: 'Webhook answered 429', next_attempt_at: at(3000).toISOString() });
    expect(second).toMatchObject({ state: 'pending', attempts: 0 });

    api.setNow(at(2999));
    await deliverDueChatMessages(api.context);
    expect(discord.received.map((r) => (r.body.embeds as { title: string }[])[0]?.title)).toEqual(['first', 'second']);
    api.setNow(at(3000));
    expect(await deliverDueChatMessages(api.context)).toMatchObject({ sent: 1 });
    expect((await chatMessageRows(api)).map((r) => r.state)).toEqual(['sent', 'sent']);
  });

  it('takes the wait from the JSON body when a 429 has no Retry-After header', async () => {
    await enqueueTest('limited');
    discord.answers.push({ status: 429, headers: { 'content-type': 'application/json' }, body: '{"retry_after":1.5,"global":false}' });
    api.setNow(T0);
    await deliverDueChatMessages(api.context);
    expect((await chatMessageRows(api))[0]?.next_attempt_at).toBe(at(1500).toISOString());
  });

  it('backs off exponentially with jitter on server errors, then gives up', async () => {
    await enqueueTest('unlucky');
    const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 3 };
    discord.answers.push({ status: 500 }, { status: 502 }, { status: 503 });
    api.setNow(T0);
    await deliverDueChatMessages(api.context, { policy, random: fixedRandom });
    let [row] = await chatMessageRows(api);
    // 5 s base, +10 % jitter at random 0.5.
    expect(row).toMatchObject({ state: 'pending', attempts: 1, last_error: 'Webhook answered 500', next_attempt_at: at(5500).toISOString() });

    api.setNow(at(5500));
    await deliverDueChatMessages(api.context, { policy, random: fixedRandom });
    [row] = await chatMessageRows(api);
    expect(row).toMatchObject({ state: 'pending', attempts: 2, next_attempt_at: at(5500 + 11000).toISOString() });

    api.setNow(at(16500));
    expect(await deliverDueChatMessages(api.context, { policy, random: fixedRandom })).toMatchObject({ failed: 1 });
    [row] = await chatMessageRows(api);
    expect(row).toMatchObject({ state: 'failed', attempts: 3, last_error: 'Webhook answered 503', sent_at: null });
    expect(discord.received).toHaveLength(3);

    api.setNow(at(10 * 60 * 60 * 1000));
    await deliverDueChatMessages(api.context, { policy });
    expect(discord.received).toHaveLength(3);
  });

  it('gives up at once when Discord refuses the message (400)', async () => {
    await enqueueTest('refused');
    discord.answers.push({ status: 400, headers: { 'content-type': 'application/json' }, body: '{"code":50035,"message":"Invalid Form Body"}' });
    api.setNow(T0);
    expect(await deliverDueChatMessages(api.context)).toMatchObject({ failed: 1 });
    expect((await chatMessageRows(api))[0]).toMatchObject({ state: 'failed', attempts: 1, last_error: 'Webhook answered 400' });
  });

  it('times out a webhook that does not answer and retries later', async () => {
    await enqueueTest('slow');
    discord.answers.push({ hang: true });
    api.setNow(T0);
    expect(await deliverDueChatMessages(api.context, { timeoutMs: 100, random: fixedRandom })).toMatchObject({ retrying: 1 });
    const [row] = await chatMessageRows(api);
    expect(row?.state).toBe('pending');
    expect(row?.last_error).toContain('timed out');
    expect(row?.next_attempt_at).toBe(at(5500).toISOString());
  });
});

describe('when the webhook is unreachable or not configured', () => {
  it('the staff action still succeeds; the message waits for a retry', async () => {
    const closed = await startFakeDiscord();
    await closed.close();
    const offline = await startTestApi({ discordWebhookUrl: closed.url });
    try {
      const admin = await offline.signInAs('admin');
      const id = await seedStaffPetition(offline);
      const response = await offline.request({ method: 'DELETE', url: `/api/petitions/${id}`, cookie: admin });
      expect(response.statusCode).toBe(200);
      expect(await deliverDueChatMessages(offline.context)).toMatchObject({ retrying: 1 });
      const [row] = await chatMessageRows(offline);
      expect(row?.state).toBe('pending');
      expect(row?.last_error).toBe('Webhook request failed: fetch failed (ECONNREFUSED)');
    } finally {
      await offline.close();
    }
  });

  it('with no webhook URL, messages are recorded and never sent', async () => {
    const quiet = await startTestApi({ discordWebhookUrl: undefined });
    try {
      const leader = await quiet.signInAs('rank7');
      const id = await seedStaffPetition(quiet);
      await quiet.request({ method: 'POST', url: `/api/petitions/${id}/debate-info`, payload: { status: 'scheduled', date: '2026-07-01' }, cookie: leader });
      expect(await deliverDueChatMessages(quiet.context)).toEqual({ sent: 0, retrying: 0, failed: 0, recorded: 1 });
      const [row] = await chatMessageRows(quiet);
      expect(row).toMatchObject({ state: 'recorded', event: 'debate.added', attempts: 0, sent_at: null });
      expect(discord.received).toHaveLength(0);
    } finally {
      await quiet.close();
    }
  });
});

describe('the background worker', () => {
  it('delivers on its timer and stops cleanly', async () => {
    const worker = createChatDeliveryWorker(api.context, { intervalMs: 20 });
    worker.start();
    await enqueueChatMessage(api.context.db, { event: 'staff.message', message: { embeds: [{ title: 'timer' }] }, now: new Date(Date.now() - 1000) });
    await waitFor(() => discord.received.length === 1);
    await worker.stop();
    await enqueueChatMessage(api.context.db, { event: 'staff.message', message: { embeds: [{ title: 'after stop' }] }, now: new Date(Date.now() - 1000) });
    worker.nudge();
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(discord.received).toHaveLength(1);
    expect((await chatMessageRows(api)).map((r) => r.state)).toEqual(['sent', 'pending']);
  });

  it('runs inside the real server when background jobs are on: a staff action is delivered at once', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-worker-'));
    const config = {
      ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ADMIN_USER_ID: '9000' }),
      databaseUrl: `sqlite:${path.join(dir, 'test.db')}`,
      discordWebhookUrl: discord.url,
    };
    const database = await openDatabase(config.databaseUrl);
    const context = createAppContext({ config, db: database.db, dialect: database.dialect, runBackgroundJobs: true });
    const app = await buildApp(context, { logger: false });
    try {
      await app.ready();
      await context.users.upsert(ROLE_PROFILES.rank8);
      const { token } = await context.sessions.create(ROLE_PROFILES.rank8.id, 'web');
      const row = await database.db
        .insertInto('petitions')
        .values({
          title: 'Keep the night buses',
          description: 'Night buses carry shift workers home safely every single night.',
          creator_name: 'Citizen Kane',
          creator_id: '9002',
          tags: '["Public Services"]',
          category: 'General',
          term_id: null,
          status: 'open',
          signature_count: 0,
          version: 1,
          created_at: new Date().toISOString(),
          updated_at: new Date().toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const response = await app.inject({
        method: 'DELETE',
        url: `/api/petitions/${row.id}`,
        headers: { cookie: `${context.cookie.name}=${token}`, [CSRF_HEADER]: CSRF_HEADER_VALUE },
      });
      expect(response.statusCode).toBe(200);
      // Far sooner than the 5 s poll: the action nudges the worker.
      await waitFor(() => discord.received.some((r) => (r.body.embeds as { title: string }[])[0]?.title === 'Petition deleted: Keep the night buses'), 1500);
    } finally {
      await app.close();
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('retry policy', () => {
  it('doubles from the base delay and stops at the cap', () => {
    const noJitter = () => 0;
    const policy = DEFAULT_RETRY_POLICY;
    expect([1, 2, 3, 4].map((n) => chatBackoffDelayMs(n, policy, noJitter))).toEqual([5000, 10000, 20000, 40000]);
    expect(chatBackoffDelayMs(30, policy, noJitter)).toBe(policy.maxDelayMs);
    expect(chatBackoffDelayMs(1, policy, () => 0.999)).toBeLessThanOrEqual(5000 * (1 + policy.jitterRatio));
  });

  it('reads Retry-After as seconds, decimals or an HTTP date', () => {
    expect(parseRetryAfter('3', T0.getTime())).toBe(3000);
    expect(parseRetryAfter('0.25', T0.getTime())).toBe(250);
    expect(parseRetryAfter(new Date(T0.getTime() + 7000).toUTCString(), T0.getTime())).toBe(7000);
    expect(parseRetryAfter('soon', T0.getTime())).toBeNull();
    expect(parseRetryAfter(null, T0.getTime())).toBeNull();
  });
});

describe('messages', () => {
  it('stay within Discord’s limits however long the petition and response are', () => {
    const petition = {
      id: 7,
      title: 'T'.repeat(600),
      governmentResponse: '😀'.repeat(5000),
      debateInfo: null,
      signatures: 3,
    } as unknown as Petition;
    const message = petitionEventMessage({ event: 'government_response.added', petition, actor: { name: 'N'.repeat(500), role: 'Cabinet Minister' }, now: T0, publicBaseUrl: 'https://petitions.example' });
    const [embed] = message.embeds;
    expect(embed?.title?.length).toBeLessThanOrEqual(256);
    expect(embed?.description?.length).toBeLessThanOrEqual(4096);
    expect(embed?.url).toBe('https://petitions.example/petition/7');
    expect(DiscordWebhookBody.safeParse(message).success).toBe(true);
    // No half emoji at the cut.
    expect(embed?.description?.endsWith('😀…')).toBe(true);
  });
});
