/**
 * The live stream of site state (GET /api/site-status/events) over real HTTP: state on connect,
 * changes within 5 s (also when another node writes the settings row), maintenance as a state for
 * citizens and counts for the administrator only, live counts, and one read per tick for all streams.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_EVENTS, LIVE_EVENTS_PATH } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { openEventStream, type EventStream, type StreamEvent } from '../support/sse-client.ts';
import { insertCurrentTerm, insertPetition } from './public-test-data.ts';

const WITHIN_MS = 5_000;

let api: TestApi;
let baseUrl = '';
let adminCookie = '';
let citizenCookie = '';
const openStreams: EventStream[] = [];

const isSite = (want: { maintenance?: boolean; inSession?: boolean }) => (event: StreamEvent) =>
  event.event === LIVE_EVENTS.site &&
  Object.entries(want).every(([key, value]) => (event.data as Record<string, unknown>)[key] === value);
const isCount = (id: number, signatures: number) => (event: StreamEvent) =>
  event.event === LIVE_EVENTS.count && (event.data as { id: number; signatures: number }).id === id && (event.data as { signatures: number }).signatures === signatures;

async function open(query = '', cookie?: string): Promise<EventStream> {
  const stream = await openEventStream(`${baseUrl}${LIVE_EVENTS_PATH}${query}`, { cookie });
  openStreams.push(stream);
  return stream;
}

async function setMaintenanceThroughApi(on: boolean): Promise<void> {
  const response = await api.request({ method: 'PUT', url: '/api/site-status', cookie: adminCookie, payload: { maintenance: on } });
  expect(response.statusCode, response.body).toBe(200);
}

/** Writes the maintenance row straight to the database, as another server node sharing it would. */
async function writeSettingsRow(value: 'true' | 'false'): Promise<void> {
  const stamp = new Date().toISOString();
  await api.context.db
    .insertInto('site_settings')
    .values({ key: 'maintenance', value, updated_at: stamp })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: stamp }))
    .execute();
}

beforeAll(async () => {
  api = await startTestApi();
  baseUrl = await api.listen();
  adminCookie = await api.signInAs('admin');
  citizenCookie = await api.signInAs('citizen');
});

afterAll(async () => {
  for (const stream of openStreams) stream.close();
  await api?.close();
});

describe('GET /api/site-status/events', () => {
  it('answers an event stream that starts with the site state, and follows "in session" within 5 s', async () => {
    const stream = await open();
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers['cache-control']).toBe('no-store');
    await stream.next(isSite({ maintenance: false, inSession: false }), WITHIN_MS);

    const termId = await insertCurrentTerm(api.context.db);
    await stream.next(isSite({ maintenance: false, inSession: true }), WITHIN_MS);
    expect(stream.events.filter((event) => event.event === LIVE_EVENTS.site)).toHaveLength(2);
    stream.close();
    expect(termId).toBeGreaterThan(0);
  });

  it('sees maintenance written by another node (the settings row) within 5 s, on and off', async () => {
    const stream = await open();
    await stream.next(isSite({ maintenance: false }), WITHIN_MS);
    // Straight to the database, bypassing this process's cache and its poke: as another server node would.
    const started = performance.now();
    await writeSettingsRow('true');
    const on = await stream.next(isSite({ maintenance: true }), WITHIN_MS);
    expect(on.at - started).toBeLessThan(WITHIN_MS);
    const mark = stream.events.length;
    await writeSettingsRow('false');
    await stream.next(isSite({ maintenance: false }), WITHIN_MS, mark);
    stream.close();
  });

  it('during maintenance stays open for citizens as a state change (not a 503), while other calls answer 503', async () => {
    const petition = await insertPetition(api.context.db, { signature_count: 3 });
    const citizen = await open(`?petition=${petition.id}`, citizenCookie);
    const admin = await open(`?petition=${petition.id}`, adminCookie);
    await citizen.next(isCount(petition.id, 3), WITHIN_MS);
    await admin.next(isCount(petition.id, 3), WITHIN_MS);

    await setMaintenanceThroughApi(true);
    try {
      await citizen.next(isSite({ maintenance: true }), WITHIN_MS);
      await admin.next(isSite({ maintenance: true }), WITHIN_MS);

      const refused = await api.request({ method: 'GET', url: `/api/petitions/${petition.id}`, cookie: citizenCookie });
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ detail: ERRORS.maintenance });

      // A citizen connecting now still gets a stream, with the state in it.
      const late = await open(`?petition=${petition.id}`, citizenCookie);
      expect(late.status).toBe(200);
      await late.next(isSite({ maintenance: true }), WITHIN_MS);

      // The administrator signs during maintenance: only the administrator's stream carries the new count.
      const signed = await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie: adminCookie, payload: {} });
      expect(signed.statusCode, signed.body).toBe(200);
      await admin.next(isCount(petition.id, 4), WITHIN_MS);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(citizen.events.filter(isCount(petition.id, 4))).toEqual([]);
      expect(late.events.filter((event) => event.event === LIVE_EVENTS.count)).toEqual([]);
    } finally {
      await setMaintenanceThroughApi(false);
    }
    // Switched off: the citizens catch up with the count they missed.
    const off = await citizen.next(isSite({ maintenance: false }), WITHIN_MS, 2);
    await citizen.next(isCount(petition.id, 4), WITHIN_MS, citizen.events.indexOf(off));
    const late = openStreams.at(-1)!;
    await late.next(isCount(petition.id, 4), WITHIN_MS);
  });

  it('carries the open petition\'s live count within 5 s of a signature, and its status', async () => {
    const petition = await insertPetition(api.context.db, { signature_count: 9 });
    const other = await insertPetition(api.context.db, { signature_count: 1 });
    const stream = await open(`?petition=${petition.id}`);
    await stream.next(isCount(petition.id, 9), WITHIN_MS);

    const signed = await api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie: citizenCookie, payload: {} });
    expect(signed.statusCode, signed.body).toBe(200);
    const count = await stream.next(isCount(petition.id, 10), WITHIN_MS);
    // Ten signatures: the automatic status moves on, and the event says so.
    expect(count.data).toEqual({ id: petition.id, signatures: 10, status: 'awaiting_government_response' });

    await api.request({ method: 'POST', url: `/api/petitions/${other.id}/sign`, cookie: citizenCookie, payload: {} });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(stream.events.filter((event) => event.event === LIVE_EVENTS.count && (event.data as { id: number }).id !== petition.id)).toEqual([]);
    stream.close();
  });

  it('reads the state once per tick for all streams together (no per-connection polling)', async () => {
    const streams = await Promise.all(Array.from({ length: 30 }, () => open()));
    await Promise.all(streams.map((stream) => stream.next(isSite({}), WITHIN_MS)));
    const before = api.context.live.stats();
    expect(before.subscribers).toBeGreaterThanOrEqual(30);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const after = api.context.live.stats();
    // About three ticks in three seconds, whatever the number of streams (30 per tick would be 90).
    expect(after.ticks - before.ticks).toBeGreaterThanOrEqual(2);
    expect(after.ticks - before.ticks).toBeLessThanOrEqual(5);
    for (const stream of streams) stream.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(api.context.live.stats().subscribers).toBeLessThan(before.subscribers);
  });

  it('refuses a malformed petition id with a 400 problem', async () => {
    const response = await fetch(`${baseUrl}${LIVE_EVENTS_PATH}?petition=abc`);
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
  });

  it('has no HEAD form (it would subscribe and never end)', async () => {
    const response = await fetch(`${baseUrl}${LIVE_EVENTS_PATH}`, { method: 'HEAD' });
    expect(response.status).toBe(404);
  });

  it('is documented with an operation id', async () => {
    const response = await api.request({ method: 'GET', url: '/api/docs/json' });
    type Operation = { operationId?: string; responses?: Record<string, { content?: Record<string, unknown> }> };
    const operation = (response.json() as { paths: Record<string, { get?: Operation }> }).paths[LIVE_EVENTS_PATH]?.get;
    expect(operation?.operationId).toBe('streamSiteEvents');
    expect(Object.keys(operation?.responses?.['200']?.content ?? {})).toEqual(['text/event-stream']);
  });

  it('ends open streams when the server closes, so shutdown does not wait on them', async () => {
    const separate = await startTestApi();
    const stream = await openEventStream(`${await separate.listen()}${LIVE_EVENTS_PATH}`);
    await stream.next(isSite({}), WITHIN_MS);
    await separate.close();
    await stream.ended;
    expect(separate.context.live.stats().subscribers).toBe(0);
  });
});
