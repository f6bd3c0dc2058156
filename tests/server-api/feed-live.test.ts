/**
 * The unread count on the live stream over real HTTP: on connecting, within 2 s of a new event
 * (made through the API on this node, or written by another node sharing the database), after the
 * member reads on this node; never on an anonymous stream, and held back during maintenance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_EVENTS, LIVE_EVENTS_PATH } from '../../src-shared/domain/constants.ts';
import { recordPetitionEvent } from '../../src-server/feed/events.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { openEventStream, type EventStream, type StreamEvent } from '../support/sse-client.ts';
import { currentTerm, newCitizen, newPetition, ok, respond, sign } from '../support/feed-fixtures.ts';

const WITHIN_MS = 2_000;

let api: TestApi;
let baseUrl = '';
let minister = '';
let admin = '';
let termId = 0;
const streams: EventStream[] = [];

beforeAll(async () => {
  api = await startTestApi();
  baseUrl = await api.listen();
  minister = await api.signInAs('rank6');
  admin = await api.signInAs('admin');
  termId = await currentTerm(api);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await api?.close();
});

async function open(cookie?: string): Promise<EventStream> {
  const stream = await openEventStream(`${baseUrl}${LIVE_EVENTS_PATH}`, { cookie });
  streams.push(stream);
  return stream;
}
const isUnread = (n: number) => (event: StreamEvent) => event.event === LIVE_EVENTS.unread && (event.data as { unread: number }).unread === n;

describe('unread count on the live stream', () => {
  it('arrives on connecting and follows new events within 2 s, from this node or another', async () => {
    const creator = await newCitizen(api);
    const signer = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    await sign(api, signer, petitionId);
    const stream = await open(signer.cookie);
    expect(stream.status).toBe(200);
    await stream.next(isUnread(0), WITHIN_MS);

    let mark = stream.events.length;
    const started = performance.now();
    await respond(api, minister, petitionId, 'The Government agrees.');
    const arrived = await stream.next(isUnread(1), WITHIN_MS, mark);
    expect(arrived.at - started).toBeLessThan(WITHIN_MS);

    // Another node records an event: it reaches this node's stream through the database.
    mark = stream.events.length;
    await api.context.db.transaction().execute((trx) =>
      recordPetitionEvent(trx, { petitionId, detail: { kind: 'petition_closed', reason: 'staff' }, actorId: '9000', at: new Date() }),
    );
    await stream.next(isUnread(2), WITHIN_MS, mark);

    // Reading on this node updates the member's streams at once.
    mark = stream.events.length;
    ok(await api.request({ method: 'POST', url: '/api/me/notifications/read-all', cookie: signer.cookie, payload: {} }));
    await stream.next(isUnread(0), WITHIN_MS, mark);
  });

  it('sends no unread events to anonymous streams nor to members the event does not reach', async () => {
    const creator = await newCitizen(api);
    const bystander = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    const anonymous = await open();
    const other = await open(bystander.cookie);
    const mine = await open(creator.cookie);
    await other.next(isUnread(0), WITHIN_MS);
    await mine.next(isUnread(0), WITHIN_MS);
    await respond(api, minister, petitionId, 'News for the creator only.');
    await mine.next(isUnread(1), WITHIN_MS);
    // One more tick for the others, then nothing for them.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(anonymous.events.filter((e) => e.event === LIVE_EVENTS.unread)).toEqual([]);
    expect(other.events.filter((e) => e.event === LIVE_EVENTS.unread).map((e) => e.data)).toEqual([{ unread: 0 }]);
  });

  it('holds the count back during maintenance and catches up when it ends', async () => {
    const creator = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    const stream = await open(creator.cookie);
    await stream.next(isUnread(0), WITHIN_MS);
    ok(await api.request({ method: 'PUT', url: '/api/site-status', cookie: admin, payload: { maintenance: true } }));
    try {
      await stream.next((e) => e.event === 'site' && (e.data as { maintenance: boolean }).maintenance, WITHIN_MS);
      const mark = stream.events.length;
      // The administrator may still answer during maintenance.
      await respond(api, admin, petitionId, 'Answered during maintenance.');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(stream.events.slice(mark).filter((e) => e.event === LIVE_EVENTS.unread)).toEqual([]);
    } finally {
      ok(await api.request({ method: 'PUT', url: '/api/site-status', cookie: admin, payload: { maintenance: false } }));
    }
    await stream.next(isUnread(1), WITHIN_MS);
  });
});
