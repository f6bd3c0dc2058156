/**
 * The notification centre over the real routes: events recorded by staff writes, signing and the
 * closure pass; who sees what (signers since they signed, creator-only kinds, the acting minister);
 * mutes, preferences, reading one or all; My petitions; and the staff forms' audience count.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FeedPage, MyPetitionsResult } from '../../src-shared/domain/feed-schemas.ts';
import { recordPetitionEvent } from '../../src-server/feed/events.ts';
import { mutePetition, unmutePetition } from '../../src-server/feed/member-settings.ts';
import { deleteEventsBefore } from '../../src-server/feed/retention.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { currentTerm, newCitizen, newPetition, ok, respond, sign, type Member } from '../support/feed-fixtures.ts';

let api: TestApi;
let minister = '';
let leader = '';
let admin = '';
let termId = 0;

beforeAll(async () => {
  api = await startTestApi();
  minister = await api.signInAs('rank6');
  leader = await api.signInAs('rank7');
  admin = await api.signInAs('admin');
  termId = await currentTerm(api);
});
afterAll(() => api.close());

async function feed(member: Member, query = ''): Promise<FeedPage> {
  return ok(await api.request({ url: `/api/me/notifications${query}`, cookie: member.cookie })) as FeedPage;
}
async function unread(member: Member): Promise<number> {
  return (ok(await api.request({ url: '/api/me/notifications/unread-count', cookie: member.cookie })) as { unread: number }).unread;
}
async function myPetitions(member: Member, list: 'created' | 'signed', query = ''): Promise<MyPetitionsResult> {
  return ok(await api.request({ url: `/api/me/petitions?list=${list}${query}`, cookie: member.cookie })) as MyPetitionsResult;
}

describe('a response reaches the petition’s signers', () => {
  it('names the petition and the response, counts as unread, and shows under Signed in My petitions', async () => {
    const creator = await newCitizen(api, 'Creator');
    const signer = await newCitizen(api, 'Signer');
    const petitionId = await newPetition(api, { creatorId: creator.id, termId, title: 'Fund the village libraries' });
    await sign(api, signer, petitionId);
    expect(await unread(signer)).toBe(0);

    await respond(api, minister, petitionId, 'The Government will fund every village library from April.');

    const page = await feed(signer);
    expect(page.unread).toBe(1);
    expect(page.items).toHaveLength(1);
    const [item] = page.items;
    expect(item?.petition).toEqual({ id: petitionId, title: 'Fund the village libraries', status: 'government_response' });
    expect(item?.detail).toEqual({ kind: 'response_added', excerpt: 'The Government will fund every village library from April.' });
    expect(item?.summary).toMatch(/^Government responded on \d{1,2} [A-Z][a-z]+ \d{4}$/);
    expect(item?.read).toBe(false);
    expect(await unread(creator)).toBe(1);

    const signed = await myPetitions(signer, 'signed');
    expect(signed.total).toBe(1);
    expect(signed.items[0]).toMatchObject({ id: petitionId, status: 'government_response', signatures: 2, muted: false });
    expect(signed.items[0]?.latestEvent?.summary).toMatch(/^Government responded on /);
    const created = await myPetitions(creator, 'created');
    expect(created.items.map((p) => p.id)).toEqual([petitionId]);
    expect((await myPetitions(signer, 'created')).total).toBe(0);

    // Editing is news too; the minister's own action is not news to the minister, had they signed.
    await respond(api, minister, petitionId, 'Updated: funding starts in March.');
    const again = await feed(signer);
    expect(again.items.map((i) => i.detail.kind)).toEqual(['response_edited', 'response_added']);
    expect(again.unread).toBe(2);
  });

  it('leaves out events from before the member signed, and the acting staff member’s own', async () => {
    const creator = await newCitizen(api);
    const early = await newCitizen(api);
    const late = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    await sign(api, early, petitionId);
    const ministerMember: Member = { id: '9006', cookie: minister };
    await sign(api, ministerMember, petitionId);
    await respond(api, minister, petitionId, 'A first answer from the Government.');
    // Strictly later: a signature in the very millisecond of the event counts as before it (member-feed.ts: >=),
    // and on a quick machine the two calls can share one.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await sign(api, late, petitionId);

    expect((await feed(early)).items).toHaveLength(1);
    expect((await feed(late)).items).toHaveLength(0);
    expect((await feed(ministerMember)).items.filter((i) => i.petition.id === petitionId)).toHaveLength(0);
    // The creator follows their petition from the start.
    expect((await feed(creator)).items).toHaveLength(1);
  });
});

describe('kinds and who receives them', () => {
  it('debates: scheduled, held with its Hansard link, not debated with its reason, cancelled', async () => {
    const creator = await newCitizen(api);
    const signer = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    await sign(api, signer, petitionId);
    const debate = (payload: object) => api.request({ method: 'POST', url: `/api/petitions/${petitionId}/debate-info`, cookie: leader, payload });
    ok(await debate({ status: 'scheduled', date: '2026-12-10', location: '' }));
    ok(await debate({ status: 'debated', date: '2026-12-10', hansard_url: 'https://hansard.parliament.uk/commons/2026-12-10/debates/1' }));
    ok(await debate({ status: 'not_debated', not_debated_reason: 'Parliament debated the same topic last month.' }));
    ok(await debate({ status: 'cancelled', date: '2026-12-11', not_debated_reason: 'The chamber was recalled.' }));
    const items = (await feed(signer)).items;
    expect(items.map((i) => i.detail)).toEqual([
      { kind: 'debate_cancelled', date: '2026-12-11', reason: 'The chamber was recalled.' },
      { kind: 'debate_not_debated', reason: 'Parliament debated the same topic last month.' },
      { kind: 'debate_held', date: '2026-12-10', hansardLink: 'https://hansard.parliament.uk/commons/2026-12-10/debates/1' },
      { kind: 'debate_scheduled', date: '2026-12-10', location: 'Westminster Hall' },
    ]);
    expect(items.map((i) => i.summary)).toEqual([
      'The debate scheduled for 11 December 2026 was cancelled',
      'Parliament decided not to debate this petition',
      'Debated in Parliament on 10 December 2026',
      'Debate scheduled for 10 December 2026 in Westminster Hall',
    ]);
  });

  it('thresholds reach the creator only, once each; staff status changes reach the creator, closing reaches everyone', async () => {
    const creator = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    const signers: Member[] = [];
    for (let i = 0; i < 10; i += 1) signers.push(await newCitizen(api));
    for (const member of signers.slice(0, 9)) await sign(api, member, petitionId);
    expect((await feed(creator)).items.map((i) => i.detail)).toEqual([{ kind: 'threshold_reached', threshold: 10 }]);
    // Down to 9 and back to 10: still one event.
    ok(await api.request({ method: 'POST', url: `/api/petitions/${petitionId}/unsign`, cookie: signers[0]!.cookie, payload: {} }));
    await sign(api, signers[9]!, petitionId);
    await sign(api, signers[0]!, petitionId);
    expect((await feed(creator)).items.filter((i) => i.detail.kind === 'threshold_reached')).toHaveLength(1);
    expect((await feed(signers[1]!)).items).toEqual([]);

    const setStatus = (status: string) => api.request({ method: 'PATCH', url: `/api/petitions/${petitionId}/status`, cookie: admin, payload: { status } });
    ok(await setStatus('debated_in_parliament'));
    expect((await feed(creator)).items[0]?.detail).toEqual({ kind: 'status_changed', from: 'awaiting_government_response', to: 'debated_in_parliament' });
    expect((await feed(creator)).items[0]?.summary).toBe('Status changed by staff from Awaiting government response to Debated in Parliament');
    expect((await feed(signers[1]!)).items).toEqual([]);
    ok(await setStatus('closed'));
    expect((await feed(signers[1]!)).items.map((i) => i.detail)).toEqual([{ kind: 'petition_closed', reason: 'staff' }]);
    expect((await feed(signers[1]!)).items[0]?.summary).toMatch(/^Closed by the petitions team on /);
  });

  it('the closure pass tells signers why: three weeks under 10 signatures, or the term ended', async () => {
    const creator = await newCitizen(api);
    const signer = await newCitizen(api);
    const old = await newPetition(api, { creatorId: creator.id, termId, createdAt: new Date(Date.now() - 30 * 86_400_000) });
    await sign(api, signer, old);
    const endingTerm = await currentTerm(api);
    const inTerm = await newPetition(api, { creatorId: creator.id, termId: endingTerm });
    await sign(api, signer, inTerm);
    ok(await api.request({ method: 'PATCH', url: `/api/parliamentary-terms/${endingTerm}`, cookie: admin, payload: { status: 'completed' } }));
    ok(await api.request({ method: 'POST', url: '/api/petitions/check-expired' }));
    const reasons = (await feed(signer)).items.map((i) => [i.petition.id, i.detail]);
    expect(reasons).toContainEqual([old, { kind: 'petition_closed', reason: 'three_weeks_insufficient_signatures' }]);
    expect(reasons).toContainEqual([inTerm, { kind: 'petition_closed', reason: 'term_ended' }]);
    // The term current again reopens the petition: the creator hears of the new status.
    ok(await api.request({ method: 'PATCH', url: `/api/parliamentary-terms/${endingTerm}`, cookie: admin, payload: { status: 'current' } }));
    expect((await feed(creator)).items[0]?.detail).toEqual({ kind: 'status_changed', from: 'closed', to: 'open' });
  });
});

describe('mutes, preferences and reading', () => {
  it('a muted petition says nothing more until unmuted; a topic switched off leaves the feed and the count', async () => {
    const creator = await newCitizen(api);
    const signer = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    await sign(api, signer, petitionId);
    ok(await api.request({ method: 'PUT', url: `/api/me/muted-petitions/${petitionId}`, cookie: signer.cookie }));
    ok(await api.request({ method: 'PUT', url: `/api/me/muted-petitions/${petitionId}`, cookie: signer.cookie }));
    await respond(api, minister, petitionId, 'An answer the muted signer does not hear of.');
    expect(await unread(signer)).toBe(0);
    expect((await feed(signer)).items).toEqual([]);
    expect((await myPetitions(signer, 'signed')).items[0]?.muted).toBe(true);
    const muted = ok(await api.request({ url: '/api/me/muted-petitions', cookie: signer.cookie })) as { items: { petition: { id: number } }[] };
    expect(muted.items.map((m) => m.petition.id)).toEqual([petitionId]);
    expect(await unread(creator)).toBe(1);

    ok(await api.request({ method: 'DELETE', url: `/api/me/muted-petitions/${petitionId}`, cookie: signer.cookie }));
    expect(await unread(signer)).toBe(1);
    expect(ok(await api.request({ method: 'PUT', url: '/api/me/muted-petitions/999999', cookie: signer.cookie }), 404)).toMatchObject({ detail: 'Petition not found' });

    const off = ok(
      await api.request({ method: 'PATCH', url: '/api/me/notification-preferences', cookie: signer.cookie, payload: { topics: { responses: false } } }),
    );
    expect(off).toEqual({ topics: { responses: false, debates: true, closures: true, milestones: true, status: true }, push: false });
    expect(await unread(signer)).toBe(0);
    ok(await api.request({ method: 'POST', url: `/api/petitions/${petitionId}/debate-info`, cookie: leader, payload: { status: 'scheduled', date: '2026-12-01' } }));
    expect((await feed(signer)).items.map((i) => i.detail.kind)).toEqual(['debate_scheduled']);
    ok(await api.request({ method: 'PATCH', url: '/api/me/notification-preferences', cookie: signer.cookie, payload: { topics: { responses: true }, push: true } }));
    expect(ok(await api.request({ url: '/api/me/notification-preferences', cookie: signer.cookie }))).toMatchObject({ push: true, topics: { responses: true } });
    expect(await unread(signer)).toBe(2);
  });

  it('marks one read, or all up to what the member saw', async () => {
    const creator = await newCitizen(api);
    const signer = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    await sign(api, signer, petitionId);
    await respond(api, minister, petitionId, 'First.');
    await respond(api, minister, petitionId, 'Second.');
    const [second, first] = (await feed(signer)).items;
    expect(ok(await api.request({ method: 'POST', url: `/api/me/notifications/${first!.id}/read`, cookie: signer.cookie }))).toEqual({ unread: 1 });
    expect((await feed(signer)).items.map((i) => i.read)).toEqual([false, true]);
    // Read again: nothing changes.
    expect(ok(await api.request({ method: 'POST', url: `/api/me/notifications/${first!.id}/read`, cookie: signer.cookie }))).toEqual({ unread: 1 });

    await respond(api, minister, petitionId, 'Third, after the member last looked.');
    expect(
      ok(await api.request({ method: 'POST', url: '/api/me/notifications/read-all', cookie: signer.cookie, payload: { upTo: second!.id } })),
    ).toEqual({ unread: 1 });
    expect(ok(await api.request({ method: 'POST', url: '/api/me/notifications/read-all', cookie: signer.cookie, payload: {} }))).toEqual({ unread: 0 });
    expect((await feed(signer)).items.every((i) => i.read)).toBe(true);
    // A marker never goes back.
    expect(ok(await api.request({ method: 'POST', url: '/api/me/notifications/read-all', cookie: signer.cookie, payload: { upTo: 1 } }))).toEqual({ unread: 0 });
  });

  it('pages newest first with before, and refuses bad input with Problem Details', async () => {
    const creator = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    for (let i = 1; i <= 5; i += 1) await respond(api, minister, petitionId, `Answer number ${i}.`);
    const first = await feed(creator, '?limit=2');
    expect(first.items).toHaveLength(2);
    const second = await feed(creator, `?limit=2&before=${first.nextBefore}`);
    const third = await feed(creator, `?limit=2&before=${second.nextBefore}`);
    const ids = [...first.items, ...second.items, ...third.items].map((i) => i.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(new Set(ids).size).toBe(5);
    expect(third.nextBefore).toBeNull();

    for (const url of ['/api/me/notifications?limit=0', '/api/me/notifications?limit=51', '/api/me/notifications?before=abc', '/api/me/notifications?before=01', '/api/me/petitions', '/api/me/petitions?list=mine', '/api/me/notifications?other=1']) {
      const response = await api.request({ url, cookie: creator.cookie });
      expect(response.statusCode, url).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    const badBodies: [string, string, unknown][] = [
      ['PATCH', '/api/me/notification-preferences', { topics: { gossip: false } }],
      ['PATCH', '/api/me/notification-preferences', { push: 'yes' }],
      ['POST', '/api/me/notifications/read-all', { upTo: -1 }],
      ['POST', '/api/me/notifications/read-all', { upTo: 1, extra: true }],
    ];
    for (const [method, url, payload] of badBodies) {
      const response = await api.request({ method: method as 'POST', url, cookie: creator.cookie, payload: payload as object });
      expect(response.statusCode, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
    }
    expect((await api.request({ url: '/api/me/notifications' })).statusCode).toBe(401);
  });
});

describe('the unread count a node keeps', () => {
  it('follows every change, also those another node makes straight in the database', async () => {
    const creator = await newCitizen(api);
    const signer = await newCitizen(api);
    const first = await newPetition(api, { creatorId: creator.id, termId });
    const second = await newPetition(api, { creatorId: creator.id, termId });
    const third = await newPetition(api, { creatorId: creator.id, termId });
    for (const id of [first, second, third]) await sign(api, signer, id);
    for (const id of [first, second, third]) await respond(api, minister, id, `An answer on ${id}.`);
    expect(await unread(signer)).toBe(3);
    expect(await unread(signer)).toBe(3);
    const db = api.context.db;
    // Another node's unsign (the signing batch writes the row away).
    await db.deleteFrom('signatures').where('petition_id', '=', first).where('user_id', '=', signer.id).execute();
    expect(await unread(signer)).toBe(2);
    // Another node deletes a petition: its events go with it.
    await db.deleteFrom('petitions').where('id', '=', second).execute();
    expect(await unread(signer)).toBe(1);
    // Another node's mute, through the same code every node runs.
    await mutePetition(db, signer.id, third, new Date());
    expect(await unread(signer)).toBe(0);
    await unmutePetition(db, signer.id, third, new Date());
    expect(await unread(signer)).toBe(1);
    // Retention somewhere deletes the event, not the newest one (which is elsewhere, and later).
    const elsewhere = await newPetition(api, { creatorId: creator.id, termId });
    await db.transaction().execute((trx) =>
      recordPetitionEvent(trx, { petitionId: elsewhere, detail: { kind: 'petition_closed', reason: 'staff' }, actorId: null, at: new Date(Date.now() + 86_400_000) }),
    );
    expect(await unread(signer)).toBe(1);
    await deleteEventsBefore(db, new Date(Date.now() + 60_000));
    expect(await unread(signer)).toBe(0);
  });
});

describe('one member can never read another’s', () => {
  it('ids and cursors only ever narrow the member’s own feed', async () => {
    const alice = await newCitizen(api, 'Alice');
    const bob = await newCitizen(api, 'Bob');
    const alicePetition = await newPetition(api, { creatorId: alice.id, termId, title: 'Alice’s petition' });
    await respond(api, minister, alicePetition, 'Only Alice hears of this.');
    const [aliceEvent] = (await feed(alice)).items;
    expect(aliceEvent).toBeDefined();

    expect((await feed(bob)).items).toEqual([]);
    expect((await feed(bob, `?before=${aliceEvent!.id + 1}`)).items).toEqual([]);
    const read = await api.request({ method: 'POST', url: `/api/me/notifications/${aliceEvent!.id}/read`, cookie: bob.cookie });
    expect(read.statusCode).toBe(404);
    expect(read.json().detail).toBe('Notification not found');
    expect((await api.request({ method: 'POST', url: '/api/me/notifications/99999999/read', cookie: bob.cookie })).statusCode).toBe(404);
    // Bob's "read all" cannot touch Alice's count.
    ok(await api.request({ method: 'POST', url: '/api/me/notifications/read-all', cookie: bob.cookie, payload: { upTo: aliceEvent!.id } }));
    expect(await unread(alice)).toBe(1);
    // There is no way to name another member: no user id in any /api/me/ route.
    expect((await api.request({ url: `/api/me/notifications?user=${alice.id}`, cookie: bob.cookie })).statusCode).toBe(400);
    expect((await myPetitions(bob, 'created')).items).toEqual([]);
  });
});

describe('the staff forms’ audience', () => {
  it('counts signers minus mutes, minus the topic switched off, minus the staff member asking', async () => {
    const creator = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    const members: Member[] = [];
    for (let i = 0; i < 5; i += 1) {
      const member = await newCitizen(api);
      members.push(member);
      await sign(api, member, petitionId);
    }
    await sign(api, { id: '9006', cookie: minister }, petitionId);
    const audience = async (topic: string) =>
      (ok(await api.request({ url: `/api/petitions/${petitionId}/notification-audience?topic=${topic}`, cookie: minister })) as { signers: number }).signers;
    expect(await audience('responses')).toBe(6);
    ok(await api.request({ method: 'PUT', url: `/api/me/muted-petitions/${petitionId}`, cookie: members[0]!.cookie }));
    ok(await api.request({ method: 'PATCH', url: '/api/me/notification-preferences', cookie: members[1]!.cookie, payload: { topics: { responses: false } } }));
    // Muted and switched off at once counts once.
    ok(await api.request({ method: 'PUT', url: `/api/me/muted-petitions/${petitionId}`, cookie: members[1]!.cookie }));
    ok(await api.request({ method: 'PATCH', url: '/api/me/notification-preferences', cookie: members[2]!.cookie, payload: { topics: { responses: false } } }));
    expect(await audience('responses')).toBe(3);
    expect(await audience('debates')).toBe(4);
    expect((await api.request({ url: `/api/petitions/${petitionId}/notification-audience?topic=responses`, cookie: members[3]!.cookie })).statusCode).toBe(403);
    expect((await api.request({ url: `/api/petitions/99999999/notification-audience?topic=responses`, cookie: minister })).statusCode).toBe(404);
    expect((await api.request({ url: `/api/petitions/${petitionId}/notification-audience?topic=gossip`, cookie: minister })).statusCode).toBe(400);
  });
});
