/**
 * Presence and claims (docs/console-team.md#presence) over the API: who may say where they are and
 * claim what, how a claim starts, is renewed by typing and not by a heartbeat, lapses and ends,
 * bad input, and the staff event stream that carries the list live.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { PRESENCE_CLAIM_MS, PRESENCE_SEEN_MS, STAFF_EVENTS, STAFF_EVENTS_PATH } from '../../src-shared/domain/team-constants.ts';
import type { PresenceList, QueueSummary } from '../../src-shared/domain/team-schemas.ts';
import { PRESENCE_PATH } from '../../src-server/presence/presence-routes.ts';
import { ROLE_PROFILES, startTestApi, type TestApi } from '../support/api-harness.ts';
import { openEventStream, type EventStream } from '../support/sse-client.ts';
import { body, seedStaffPetition, signInEveryone, type Role } from './staff-fixtures.ts';

let api: TestApi;
let baseUrl = '';
let cookies: Record<Role, string>;
const streams: EventStream[] = [];

const CLIENT_A = 'client-a-0123456789';
const CLIENT_B = 'client-b-0123456789';

beforeAll(async () => {
  api = await startTestApi();
  baseUrl = await api.listen();
  cookies = await signInEveryone(api);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await api.close();
});

function put(role: Role, clientId: string, payload: unknown) {
  return api.request({ method: 'PUT', url: `${PRESENCE_PATH}/${clientId}`, cookie: cookies[role], payload: payload as object });
}

async function list(role: Role = 'rank8'): Promise<PresenceList> {
  const response = await api.request({ method: 'GET', url: PRESENCE_PATH, cookie: cookies[role] });
  expect(response.statusCode, response.body).toBe(200);
  return body<PresenceList>(response);
}

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe('PUT /api/staff/presence/{clientId}', () => {
  it('shows a viewer with name and role, then their claim when they open the response form', async () => {
    const petitionId = await seedStaffPetition(api, { signatures: 12, status: 'awaiting_government_response' });
    const start = new Date('2026-05-01T10:00:00.000Z');
    api.setNow(start);
    try {
      const viewing = await put('rank6', CLIENT_A, { petitionId, activity: 'viewing' });
      expect(viewing.statusCode, viewing.body).toBe(200);
      expect(body<PresenceList>(viewing).entries).toEqual([
        {
          userId: ROLE_PROFILES.rank6.id,
          displayName: 'Cabinet Minister',
          role: 'Cabinet Minister',
          petitionId,
          activity: 'viewing',
          since: start.toISOString(),
          claimedUntil: null,
        },
      ]);

      api.setNow(at(start, 5_000));
      expect((await put('rank6', CLIENT_A, { petitionId, activity: 'responding' })).statusCode).toBe(200);
      const [claim] = (await list()).entries;
      expect(claim).toMatchObject({ activity: 'responding', since: at(start, 5_000).toISOString(), claimedUntil: at(start, 5_000 + PRESENCE_CLAIM_MS).toISOString() });
    } finally {
      api.setNow(null);
      await api.request({ method: 'DELETE', url: `${PRESENCE_PATH}/${CLIENT_A}`, cookie: cookies.rank6 });
    }
  });

  it('renews a claim on typing but not on a heartbeat, lets it lapse to viewing, and forgets a silent client', async () => {
    const petitionId = await seedStaffPetition(api, { signatures: 25, status: 'awaiting_debate_in_parliament' });
    const start = new Date('2026-05-02T10:00:00.000Z');
    api.setNow(start);
    try {
      await put('rank7', CLIENT_A, { petitionId, activity: 'debating' });
      // A heartbeat 20 s later keeps the claim's end where it was.
      api.setNow(at(start, 20_000));
      await put('rank7', CLIENT_A, { petitionId, activity: 'debating' });
      expect((await list()).entries[0]).toMatchObject({ activity: 'debating', since: start.toISOString(), claimedUntil: at(start, PRESENCE_CLAIM_MS).toISOString() });
      // Typing renews it from now.
      api.setNow(at(start, 40_000));
      await put('rank7', CLIENT_A, { petitionId, activity: 'debating', renewClaim: true });
      expect((await list()).entries[0]?.claimedUntil).toBe(at(start, 40_000 + PRESENCE_CLAIM_MS).toISOString());
      // Heartbeats alone keep the person there but the claim lapses: they read as viewing.
      for (let t = 60_000; t <= 40_000 + PRESENCE_CLAIM_MS + 20_000; t += 20_000) {
        api.setNow(at(start, t));
        await put('rank7', CLIENT_A, { petitionId, activity: 'debating' });
      }
      expect((await list()).entries).toEqual([expect.objectContaining({ petitionId, activity: 'viewing', claimedUntil: null, since: start.toISOString() })]);
      // Silence: gone once PRESENCE_SEEN_MS has passed since the last heartbeat.
      api.setNow(at(start, 40_000 + PRESENCE_CLAIM_MS + 20_000 + PRESENCE_SEEN_MS + 1));
      expect((await list()).entries).toEqual([]);
    } finally {
      api.setNow(null);
    }
  });

  it('keeps one entry per client and ends it on DELETE (twice is fine)', async () => {
    const first = await seedStaffPetition(api, { signatures: 11, status: 'awaiting_government_response' });
    const second = await seedStaffPetition(api, { signatures: 11, status: 'awaiting_government_response' });
    await put('rank8', CLIENT_A, { petitionId: first, activity: 'viewing' });
    await put('rank8', CLIENT_B, { petitionId: second, activity: 'responding' });
    await put('rank8', CLIENT_A, { petitionId: second, activity: 'viewing' });
    expect((await list()).entries.map((e) => [e.petitionId, e.activity]).sort()).toEqual([
      [second, 'responding'],
      [second, 'viewing'],
    ]);
    for (let i = 0; i < 2; i++) {
      const gone = await api.request({ method: 'DELETE', url: `${PRESENCE_PATH}/${CLIENT_B}`, cookie: cookies.rank8 });
      expect(gone.statusCode).toBe(200);
    }
    // Another user's DELETE of the same client id touches only their own row.
    await api.request({ method: 'DELETE', url: `${PRESENCE_PATH}/${CLIENT_A}`, cookie: cookies.rank6 });
    expect((await list()).entries.map((e) => [e.petitionId, e.activity, e.userId])).toEqual([[second, 'viewing', ROLE_PROFILES.rank8.id]]);
    await api.request({ method: 'DELETE', url: `${PRESENCE_PATH}/${CLIENT_A}`, cookie: cookies.rank8 });
    expect((await list()).entries).toEqual([]);
  });

  it('goes with its petition when the petition is deleted', async () => {
    const petitionId = await seedStaffPetition(api, { signatures: 11, status: 'awaiting_government_response' });
    await put('rank7', CLIENT_B, { petitionId, activity: 'viewing' });
    const deleted = await api.request({ method: 'DELETE', url: `/api/petitions/${petitionId}`, cookie: cookies.rank7 });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await list()).entries.filter((e) => e.petitionId === petitionId)).toEqual([]);
  });

  it('lets only staff be present, and only those who may write an answer claim it', async () => {
    const petitionId = await seedStaffPetition(api, { signatures: 21, status: 'awaiting_debate_in_parliament' });
    const viewing = { petitionId, activity: 'viewing' };
    expect((await api.request({ method: 'PUT', url: `${PRESENCE_PATH}/${CLIENT_A}`, payload: viewing })).statusCode).toBe(401);
    for (const role of ['citizen', 'nonCitizen', 'bannedCitizen'] as const) {
      const refused = await put(role, CLIENT_A, viewing);
      expect(refused.statusCode).toBe(403);
      expect(body(refused).detail).toBe(ERRORS.staffOnly);
    }
    const debating = await put('rank6', CLIENT_A, { petitionId, activity: 'debating' });
    expect(debating.statusCode).toBe(403);
    expect(body(debating).detail).toBe(ERRORS.debateForbidden);
    expect((await put('admin', CLIENT_A, { petitionId, activity: 'debating' })).statusCode).toBe(200);
    expect((await list('rank6')).entries).toEqual([expect.objectContaining({ role: 'System Administrator', activity: 'debating' })]);
    for (const role of ['citizen', 'nonCitizen'] as const) {
      expect((await api.request({ method: 'GET', url: PRESENCE_PATH, cookie: cookies[role] })).statusCode).toBe(403);
    }
    await api.request({ method: 'DELETE', url: `${PRESENCE_PATH}/${CLIENT_A}`, cookie: cookies.admin });
  });

  it('refuses bad input with 400 or 404 and writes nothing', async () => {
    const petitionId = await seedStaffPetition(api, { signatures: 11, status: 'awaiting_government_response' });
    const cases: [string, unknown, number][] = [
      ['short', { petitionId, activity: 'viewing' }, 400],
      ['has spaces in it 12345', { petitionId, activity: 'viewing' }, 400],
      [CLIENT_A, { petitionId, activity: 'editing' }, 400],
      [CLIENT_A, { petitionId: '0x1f', activity: 'viewing' }, 400],
      [CLIENT_A, { petitionId: -3, activity: 'viewing' }, 400],
      [CLIENT_A, { petitionId, activity: 'viewing', renewClaim: 'yes' }, 400],
      [CLIENT_A, { petitionId, activity: 'viewing', who: '9008' }, 400],
      [CLIENT_A, { activity: 'viewing' }, 400],
      [CLIENT_A, { petitionId: 987_654, activity: 'viewing' }, 404],
    ];
    for (const [clientId, payload, status] of cases) {
      const response = await put('rank8', encodeURIComponent(clientId), payload);
      expect(response.statusCode, `${clientId} ${JSON.stringify(payload)}: ${response.body}`).toBe(status);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    expect(await api.context.db.selectFrom('staff_presence').selectAll().where('user_id', '=', ROLE_PROFILES.rank8.id).execute()).toEqual([]);
  });
});

describe('GET /api/staff/events', () => {
  it("carries another minister's presence to a second stream within 2 s, and the queue summary", async () => {
    const petitionId = await seedStaffPetition(api, { signatures: 13, status: 'awaiting_government_response' });
    const stream = await openEventStream(`${baseUrl}${STAFF_EVENTS_PATH}`, { cookie: cookies.rank8 });
    streams.push(stream);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toContain('text/event-stream');
    const queues = await stream.next((e) => e.event === STAFF_EVENTS.queues, 5_000);
    expect((queues.data as QueueSummary).queues.response.total).toBeGreaterThanOrEqual(1);
    await stream.next((e) => e.event === STAFF_EVENTS.presence, 5_000);

    const mark = stream.events.length;
    const sent = performance.now();
    await put('rank6', CLIENT_B, { petitionId, activity: 'responding' });
    const seen = await stream.next(
      (e) => e.event === STAFF_EVENTS.presence && (e.data as PresenceList).entries.some((x) => x.petitionId === petitionId && x.activity === 'responding'),
      2_000,
      mark,
    );
    expect(seen.at - sent).toBeLessThan(2_000);

    const after = stream.events.length;
    await api.request({ method: 'DELETE', url: `${PRESENCE_PATH}/${CLIENT_B}`, cookie: cookies.rank6 });
    await stream.next((e) => e.event === STAFF_EVENTS.presence && (e.data as PresenceList).entries.every((x) => x.petitionId !== petitionId), 2_000, after);
  });

  it('is for staff only', async () => {
    for (const role of ['citizen', 'nonCitizen'] as const) {
      const refused = await openEventStream(`${baseUrl}${STAFF_EVENTS_PATH}`, { cookie: cookies[role] });
      streams.push(refused);
      expect(refused.status).toBe(403);
    }
    const guest = await openEventStream(`${baseUrl}${STAFF_EVENTS_PATH}`);
    streams.push(guest);
    expect(guest.status).toBe(401);
  });
});
