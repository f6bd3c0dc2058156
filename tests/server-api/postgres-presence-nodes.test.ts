/**
 * Presence across two server nodes on one PostgreSQL database (always PostgreSQL): a minister on one
 * node is seen by staff streaming from the other within 2 s, both ways, claims and departures too,
 * since presence lives in the database and each node's publisher reads it every tick.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_EVENTS, STAFF_EVENTS_PATH } from '../../src-shared/domain/team-constants.ts';
import type { PresenceList } from '../../src-shared/domain/team-schemas.ts';
import { PRESENCE_PATH } from '../../src-server/presence/presence-routes.ts';
import { ROLE_PROFILES, startTestApi, type TestApi } from '../support/api-harness.ts';
import { seedPetition } from '../support/fixtures.ts';
import { openEventStream, type EventStream, type StreamEvent } from '../support/sse-client.ts';
import { createPostgresTestDatabase, type TestDatabase } from '../support/test-database.ts';

let database: TestDatabase;
const nodes: { api: TestApi; baseUrl: string; minister: string; leader: string }[] = [];
const streams: EventStream[] = [];

beforeAll(async () => {
  database = await createPostgresTestDatabase();
  for (let i = 0; i < 2; i++) {
    const api = await startTestApi({ databaseUrl: database.url });
    nodes.push({ api, baseUrl: await api.listen(), minister: await api.signInAs('rank6'), leader: await api.signInAs('rank7') });
  }
});

afterAll(async () => {
  for (const stream of streams) stream.close();
  for (const node of nodes) await node.api.close();
  await database?.drop();
});

async function stream(node: number, cookie: string): Promise<EventStream> {
  const opened = await openEventStream(`${nodes[node]!.baseUrl}${STAFF_EVENTS_PATH}`, { cookie });
  streams.push(opened);
  expect(opened.status).toBe(200);
  await opened.next((e) => e.event === STAFF_EVENTS.presence, 5_000);
  return opened;
}

const presenceWith = (match: (list: PresenceList) => boolean) => (event: StreamEvent) =>
  event.event === STAFF_EVENTS.presence && match(event.data as PresenceList);

describe('presence on two PostgreSQL nodes', () => {
  it('shows each node the other node\'s staff within 2 s', async () => {
    const petition = await seedPetition(nodes[0]!.api.context, { signatures: 25, status: 'awaiting_debate_in_parliament', termId: null });
    const onB = await stream(1, nodes[1]!.leader);
    const onA = await stream(0, nodes[0]!.minister);

    // The minister opens the response form on node A; the leader streams from node B.
    let mark = onB.events.length;
    let sent = performance.now();
    const put = await nodes[0]!.api.request({
      method: 'PUT',
      url: `${PRESENCE_PATH}/minister-client-000001`,
      cookie: nodes[0]!.minister,
      payload: { petitionId: petition.id, activity: 'responding' },
    });
    expect(put.statusCode, put.body).toBe(200);
    const seenOnB = await onB.next(
      presenceWith((list) => list.entries.some((e) => e.userId === ROLE_PROFILES.rank6.id && e.activity === 'responding' && e.petitionId === petition.id)),
      2_000,
      mark,
    );
    expect(seenOnB.at - sent).toBeLessThan(2_000);

    // The leader claims the debate on node B; node A's stream sees it, beside the minister's claim.
    mark = onA.events.length;
    sent = performance.now();
    await nodes[1]!.api.request({
      method: 'PUT',
      url: `${PRESENCE_PATH}/leader-client-0000001`,
      cookie: nodes[1]!.leader,
      payload: { petitionId: petition.id, activity: 'debating' },
    });
    const seenOnA = await onA.next(presenceWith((list) => list.entries.some((e) => e.userId === ROLE_PROFILES.rank7.id && e.activity === 'debating')), 2_000, mark);
    expect(seenOnA.at - sent).toBeLessThan(2_000);
    expect((seenOnA.data as PresenceList).entries.map((e) => [e.displayName, e.activity]).sort()).toEqual([
      ['Cabinet Minister', 'responding'],
      ['Leader of the House', 'debating'],
    ]);

    // Leaving on node A reaches node B too.
    mark = onB.events.length;
    await nodes[0]!.api.request({ method: 'DELETE', url: `${PRESENCE_PATH}/minister-client-000001`, cookie: nodes[0]!.minister });
    await onB.next(presenceWith((list) => list.entries.every((e) => e.userId !== ROLE_PROFILES.rank6.id)), 2_000, mark);
    const read = await nodes[1]!.api.request({ method: 'GET', url: PRESENCE_PATH, cookie: nodes[1]!.leader });
    expect(read.json<PresenceList>().entries.map((e) => e.userId)).toEqual([ROLE_PROFILES.rank7.id]);
  });
});
