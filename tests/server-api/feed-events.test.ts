/**
 * The event model as a background reader (web push) sees it: events read in id order with a cursor
 * that skips nothing, recipients paged by user id with the same rules as the feed, and retention.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventRecipients } from '../../src-server/feed/recipients.ts';
import { readEventsAfter, recordPetitionEvent, recordPetitionEvents, type StoredPetitionEvent } from '../../src-server/feed/events.ts';
import { deleteEventsBefore, retentionCutoff, runRetentionPass } from '../../src-server/feed/retention.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { currentTerm, newCitizen, newPetition, ok, respond, sign, type Member } from '../support/feed-fixtures.ts';

let api: TestApi;
let minister = '';
let termId = 0;

beforeAll(async () => {
  api = await startTestApi();
  minister = await api.signInAs('rank6');
  termId = await currentTerm(api);
});
afterAll(() => api.close());

async function allRecipients(event: StoredPetitionEvent, pageSize: number): Promise<string[]> {
  const all: string[] = [];
  for (let after: string | null = null; ; ) {
    const page = await eventRecipients(api.context.db, event, { afterUserId: after, limit: pageSize });
    all.push(...page);
    if (page.length < pageSize) return all;
    after = page.at(-1)!;
  }
}

async function lastEvent(): Promise<StoredPetitionEvent> {
  let cursor = 0;
  let last: StoredPetitionEvent | undefined;
  for (;;) {
    const batch = await readEventsAfter(api.context.db, cursor, 100);
    if (!batch.events.length && batch.cursor === cursor) break;
    last = batch.events.at(-1) ?? last;
    cursor = batch.cursor;
  }
  if (!last) throw new Error('no events');
  return last;
}

describe('reading events in order', () => {
  it('returns them oldest first after the cursor, and moves the cursor past unreadable rows', async () => {
    const creator = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    const start = (await readEventsAfter(api.context.db, 0, 100_000)).cursor;
    await api.context.db.transaction().execute((trx) =>
      recordPetitionEvents(trx, [
        { petitionId, detail: { kind: 'debate_not_debated', reason: 'One' }, actorId: null, at: new Date() },
        { petitionId, detail: { kind: 'debate_not_debated', reason: 'Two' }, actorId: null, at: new Date() },
      ]),
    );
    // A row a newer release wrote, with a kind this one does not know.
    await api.context.db
      .insertInto('petition_events')
      .values({ petition_id: petitionId, kind: 'from_the_future', audience: 'signers', detail: '{}', created_at: new Date().toISOString() })
      .execute();
    const batch = await readEventsAfter(api.context.db, start, 10);
    expect(batch.events.map((e) => e.detail)).toEqual([
      { kind: 'debate_not_debated', reason: 'One' },
      { kind: 'debate_not_debated', reason: 'Two' },
    ]);
    expect(batch.cursor).toBeGreaterThan(batch.events.at(-1)!.id);
    expect((await readEventsAfter(api.context.db, batch.cursor, 10)).events).toEqual([]);
    const dedupe = await api.context.db.transaction().execute((trx) =>
      recordPetitionEvent(trx, { petitionId, detail: { kind: 'threshold_reached', threshold: 20 }, actorId: null, at: new Date(), dedupeKey: 'threshold:20' }),
    );
    const again = await api.context.db.transaction().execute((trx) =>
      recordPetitionEvent(trx, { petitionId, detail: { kind: 'threshold_reached', threshold: 20 }, actorId: null, at: new Date(), dedupeKey: 'threshold:20' }),
    );
    expect([dedupe, again]).toEqual([1, 0]);
  });
});

describe('recipients', () => {
  it('pages signers by user id, with the creator first when they unsigned, minus mutes, topics off, late signers and the actor', async () => {
    const creator = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    ok(await api.request({ method: 'POST', url: `/api/petitions/${petitionId}/unsign`, cookie: creator.cookie, payload: {} }));
    const signers: Member[] = [];
    for (let i = 0; i < 7; i += 1) {
      const member = await newCitizen(api);
      signers.push(member);
      await sign(api, member, petitionId);
    }
    await sign(api, { id: '9006', cookie: minister }, petitionId);
    ok(await api.request({ method: 'PUT', url: `/api/me/muted-petitions/${petitionId}`, cookie: signers[0]!.cookie }));
    ok(await api.request({ method: 'PATCH', url: '/api/me/notification-preferences', cookie: signers[1]!.cookie, payload: { topics: { responses: false } } }));
    await respond(api, minister, petitionId, 'To everyone who signed.');
    const late = await newCitizen(api);
    await sign(api, late, petitionId);

    const event = await lastEvent();
    expect(event.detail.kind).toBe('response_added');
    const expected = [creator.id, ...signers.slice(2).map((m) => m.id).sort()];
    expect(await allRecipients(event, 2)).toEqual(expected);
    expect(await allRecipients(event, 100)).toEqual(expected);

    // A creator-only kind reaches the creator alone.
    await api.context.db.transaction().execute((trx) =>
      recordPetitionEvent(trx, { petitionId, detail: { kind: 'petition_rejected', reason: 'Duplicate' }, actorId: '9000', at: new Date() }),
    );
    expect(await allRecipients(await lastEvent(), 10)).toEqual([creator.id]);
  });
});

describe('retention', () => {
  it('deletes events past NOTIFICATION_RETENTION_MONTHS with their reads, once per interval across nodes', async () => {
    const creator = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    const now = new Date('2027-06-15T12:00:00Z');
    expect(retentionCutoff(now, 12).toISOString()).toBe('2026-06-15T12:00:00.000Z');
    await api.context.db.transaction().execute((trx) =>
      recordPetitionEvents(trx, [
        { petitionId, detail: { kind: 'petition_closed', reason: 'staff' }, actorId: null, at: new Date('2026-06-01T00:00:00Z') },
        { petitionId, detail: { kind: 'status_changed', from: 'closed', to: 'open' }, actorId: null, at: new Date('2026-07-01T00:00:00Z') },
      ]),
    );
    const before = (await api.request({ url: '/api/me/notifications', cookie: creator.cookie })).json() as { items: { id: number }[] };
    expect(before.items).toHaveLength(2);
    ok(await api.request({ method: 'POST', url: `/api/me/notifications/${before.items[1]!.id}/read`, cookie: creator.cookie }));

    api.setNow(now);
    try {
      expect(await runRetentionPass(api.context)).toBeGreaterThanOrEqual(1);
      // Another node (or this one again) within the interval does nothing.
      expect(await runRetentionPass(api.context)).toBeNull();
    } finally {
      api.setNow(null);
    }
    const after = (await api.request({ url: '/api/me/notifications', cookie: creator.cookie })).json() as { items: { detail: { kind: string } }[] };
    expect(after.items.map((i) => i.detail.kind)).toEqual(['status_changed']);
    const reads = await api.context.db.selectFrom('feed_reads').selectAll().where('user_id', '=', creator.id).execute();
    expect(reads).toEqual([]);
    expect(await deleteEventsBefore(api.context.db, new Date('2000-01-01T00:00:00Z'))).toBe(0);
  });
});
