/**
 * A petition hidden or rejected by moderation, in its signers' and its creator's views
 * (docs/notifications.md#who-receives-what): over the real routes, its events leave every signer's
 * notification centre, unread count (on the page and on the live stream) and "Signed" list, and come
 * back when a moderator restores it; the creator keeps all of it, with the notice. The count always
 * equals the unread items the member can list. Web push and the staff forms' audience follow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_EVENTS, LIVE_EVENTS_PATH } from '../../src-shared/domain/constants.ts';
import type { FeedPage, MyPetitionsResult } from '../../src-shared/domain/feed-schemas.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { latestEventId, readEventsAfter } from '../../src-server/feed/events.ts';
import { eventRecipients } from '../../src-server/feed/recipients.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { currentTerm, newCitizen, newPetition, ok, respond, sign, type Member } from '../support/feed-fixtures.ts';
import { openEventStream, type EventStream, type StreamEvent } from '../support/sse-client.ts';

const STREAM_WITHIN_MS = 3_000;

let api: TestApi;
let baseUrl = '';
let minister = '';
let moderator = '';
let termId = 0;
const streams: EventStream[] = [];

beforeAll(async () => {
  api = await startTestApi();
  baseUrl = await api.listen();
  minister = await api.signInAs('rank6');
  moderator = await api.signInAs('rank7');
  termId = await currentTerm(api);
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await api?.close();
});

async function feed(member: Member): Promise<FeedPage> {
  return ok(await api.request({ url: '/api/me/notifications?limit=50', cookie: member.cookie })) as FeedPage;
}
async function unreadCount(member: Member): Promise<number> {
  return (ok(await api.request({ url: '/api/me/notifications/unread-count', cookie: member.cookie })) as { unread: number }).unread;
}
async function signedList(member: Member): Promise<MyPetitionsResult> {
  return ok(await api.request({ url: '/api/me/petitions?list=signed', cookie: member.cookie })) as MyPetitionsResult;
}
async function createdList(member: Member): Promise<MyPetitionsResult> {
  return ok(await api.request({ url: '/api/me/petitions?list=created', cookie: member.cookie })) as MyPetitionsResult;
}

/** Version of the petition a moderator decides on (its ETag), then the decision. */
async function decide(petitionId: number, body: Record<string, unknown>): Promise<Petition> {
  const current = ok(await api.request({ url: `/api/moderation/petitions/${petitionId}`, cookie: moderator })) as { petition: Petition };
  const response = await api.request({
    method: 'POST',
    url: `/api/petitions/${petitionId}/moderation`,
    payload: body,
    cookie: moderator,
    headers: { 'if-match': `"${current.petition.version}"` },
  });
  return ok(response) as Petition;
}

/** What a member sees of the petition: its items in their feed, whether it is in their Signed list, and the count. */
async function viewOf(member: Member, petitionId: number) {
  const page = await feed(member);
  const signed = await signedList(member);
  const count = await unreadCount(member);
  // The count is always what the member can list as unread: never a number for items they cannot see.
  expect(page.unread).toBe(count);
  expect(page.items.filter((item) => !item.read)).toHaveLength(count);
  return {
    kinds: page.items.filter((item) => item.petition.id === petitionId).map((item) => item.detail.kind),
    signed: signed.items.some((item) => item.id === petitionId),
    signedTotal: signed.total,
    unread: count,
  };
}

const isUnread = (n: number) => (event: StreamEvent) => event.event === LIVE_EVENTS.unread && (event.data as { unread: number }).unread === n;

describe('a moderated petition in its signers’ views', () => {
  it('leaves the feed, the count and the Signed list of signers while hidden or rejected, stays with its creator, and comes back when restored', async () => {
    const creator = await newCitizen(api, 'Creator');
    const signer = await newCitizen(api, 'Signer');
    const moderated = await newPetition(api, { creatorId: creator.id, termId });
    const untouched = await newPetition(api, { creatorId: creator.id, termId });
    await sign(api, signer, moderated);
    await sign(api, signer, untouched);
    await respond(api, minister, moderated, 'The Government will look into it.');
    await respond(api, minister, untouched, 'The Government agrees.');

    const visible = { kinds: ['response_added'], signed: true, signedTotal: 2, unread: 2 };
    expect(await viewOf(signer, moderated)).toEqual(visible);

    const stream = await openEventStream(`${baseUrl}${LIVE_EVENTS_PATH}`, { cookie: signer.cookie });
    streams.push(stream);
    await stream.next(isUnread(2), STREAM_WITHIN_MS);

    let mark = stream.events.length;
    await decide(moderated, { decision: 'hide', reason: 'Checking a claim' });
    expect(await viewOf(signer, moderated)).toEqual({ kinds: [], signed: false, signedTotal: 1, unread: 1 });
    await stream.next(isUnread(1), STREAM_WITHIN_MS, mark);
    // The creator's My petitions shows the notice as the petition's latest news.
    const created = (await createdList(creator)).items.find((item) => item.id === moderated);
    expect(created?.latestEvent?.kind).toBe('petition_hidden');
    // What happens to the petition meanwhile does not reach its signers either.
    await respond(api, minister, moderated, 'The Government has looked into it.');
    expect(await viewOf(signer, moderated)).toEqual({ kinds: [], signed: false, signedTotal: 1, unread: 1 });

    // The creator keeps everything (they signed their own petition too), with the notice.
    const creatorView = await viewOf(creator, moderated);
    // Newest first.
    expect(creatorView.kinds).toEqual(['response_edited', 'petition_hidden', 'response_added']);
    expect(creatorView.signed).toBe(true);

    mark = stream.events.length;
    await decide(moderated, { decision: 'restore' });
    expect(await viewOf(signer, moderated)).toEqual({ kinds: ['response_edited', 'response_added'], signed: true, signedTotal: 2, unread: 3 });
    await stream.next(isUnread(3), STREAM_WITHIN_MS, mark);

    mark = stream.events.length;
    await decide(moderated, { decision: 'reject', reasonCode: 'unclear' });
    expect(await viewOf(signer, moderated)).toEqual({ kinds: [], signed: false, signedTotal: 1, unread: 1 });
    await stream.next(isUnread(1), STREAM_WITHIN_MS, mark);
    expect((await viewOf(creator, moderated)).kinds).toContain('petition_rejected');
  });

  it('sends a hidden petition’s news to its creator alone, and the staff forms say so', async () => {
    const creator = await newCitizen(api, 'Creator');
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    const signers: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const signer = await newCitizen(api, 'Signer');
      await sign(api, signer, petitionId);
      signers.push(signer.id);
    }
    const audience = async () =>
      (ok(await api.request({ url: `/api/petitions/${petitionId}/notification-audience?topic=responses`, cookie: minister })) as { signers: number }).signers;
    // Whom web push delivers the petition's newest event to (push/fan-out.ts).
    const pushedTo = async () => {
      const { events } = await readEventsAfter(api.context.db, (await latestEventId(api.context.db)) - 1, 1);
      return eventRecipients(api.context.db, events[0]!, { afterUserId: null, limit: 100 });
    };
    expect(await audience()).toBe(4);
    await decide(petitionId, { decision: 'hide', reason: 'Checking a claim' });
    expect(await audience()).toBe(1);
    await respond(api, minister, petitionId, 'The Government will look into it.');
    expect(await pushedTo()).toEqual([creator.id]);
    await decide(petitionId, { decision: 'restore' });
    expect(await audience()).toBe(4);
    await respond(api, minister, petitionId, 'The Government has looked into it.');
    expect(await pushedTo()).toEqual([creator.id, ...signers].sort());
  });
});
