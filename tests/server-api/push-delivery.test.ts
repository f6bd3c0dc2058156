/**
 * Web push end to end inside one server, on the engine under test, against the local push service
 * over real HTTP (tests/support/local-push-service.ts decrypts and checks every message):
 * registering devices, an event reaching a signer's device encrypted and correct, mutes, topics and
 * the acting minister left out, 410/404 removing the device, 429 + Retry-After and 500 retried later,
 * nothing sent twice, two queue workers at once, and signing out removing the session's devices.
 */
import webpush from 'web-push';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUSH_TTL_SECONDS } from '../../src-shared/domain/push-constants.ts';
import { PushPayloadSchema } from '../../src-shared/domain/push-schemas.ts';
import { takeInEvents } from '../../src-server/push/event-intake.ts';
import { fanOutNextPage } from '../../src-server/push/fan-out.ts';
import { createPushWorker } from '../../src-server/push/push-worker.ts';
import { startTestApi, ROLE_PROFILES, type TestApi } from '../support/api-harness.ts';
import { currentTerm, newCitizen, newPetition, ok, respond, sign, type Member } from '../support/feed-fixtures.ts';
import { startLocalPushService, type LocalPushService, type LocalSubscription } from '../support/local-push-service.ts';

const vapid = webpush.generateVAPIDKeys();
let service: LocalPushService;
let api: TestApi;
let minister = '';
let termId = 0;

beforeAll(async () => {
  service = await startLocalPushService();
  api = await startTestApi({
    push: {
      mode: 'on',
      vapid: { publicKey: vapid.publicKey, privateKey: vapid.privateKey, subject: 'mailto:push-tests@example.org' },
      serviceOrigins: [service.origin],
      claimMs: 60_000,
    },
  });
  minister = await api.signInAs('rank6');
  termId = await currentTerm(api);
});
afterAll(async () => {
  await api?.close();
  await service?.close();
});
beforeEach(() => api.setNow(null));

async function register(member: Member, subscription = service.subscribe(vapid.publicKey)): Promise<LocalSubscription & { deviceId: number }> {
  const device = ok(
    await api.request({ method: 'POST', url: '/api/me/push-subscriptions', cookie: member.cookie, payload: subscription.json }),
    201,
  ) as { id: number };
  return { ...subscription, deviceId: device.id };
}

async function devicesOf(member: Member): Promise<{ id: number; endpoint: string }[]> {
  return (ok(await api.request({ method: 'GET', url: '/api/me/push-subscriptions', cookie: member.cookie })) as { items: { id: number; endpoint: string }[] }).items;
}

function payloads(subscription: LocalSubscription) {
  return service.held(subscription.id).map((message) => PushPayloadSchema.parse(JSON.parse(message.text)));
}

async function drain() {
  const report = await api.context.push.drain();
  expect(report.more).toBe(false);
  return report;
}

describe('devices', () => {
  it('publishes the VAPID public key, and registers a browser subscription once per endpoint', async () => {
    expect(ok(await api.request({ method: 'GET', url: '/api/push/config' }))).toEqual({ enabled: true, publicKey: vapid.publicKey });
    const member = await newCitizen(api);
    const subscription = service.subscribe(vapid.publicKey);
    const first = await register(member, subscription);
    const again = ok(await api.request({ method: 'POST', url: '/api/me/push-subscriptions', cookie: member.cookie, payload: subscription.json }), 200) as { id: number };
    expect(again.id).toBe(first.deviceId);
    expect(await devicesOf(member)).toEqual([
      expect.objectContaining({ id: first.deviceId, endpoint: subscription.json.endpoint, service: service.origin, lastDeliveredAt: null }),
    ]);
    const preferences = ok(await api.request({ method: 'GET', url: '/api/me/notification-preferences', cookie: member.cookie })) as { push: boolean };
    expect(preferences.push).toBe(true);
  });

  it('refuses endpoints of other push services (no requests to arbitrary hosts) and malformed keys', async () => {
    const member = await newCitizen(api);
    const good = service.subscribe(vapid.publicKey).json;
    const refused = await api.request({
      method: 'POST',
      url: '/api/me/push-subscriptions',
      cookie: member.cookie,
      payload: { ...good, endpoint: 'http://169.254.169.254/latest/meta-data' },
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ detail: 'This push service is not one this site sends to.' });
    for (const payload of [
      { ...good, keys: { ...good.keys, p256dh: 'short' } },
      { ...good, keys: { ...good.keys, auth: 'x'.repeat(40) } },
      { ...good, endpoint: 'javascript:alert(1)' },
      { ...good, extra: true },
      { endpoint: good.endpoint },
    ]) {
      const response = await api.request({ method: 'POST', url: '/api/me/push-subscriptions', cookie: member.cookie, payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
    }
    expect(await devicesOf(member)).toEqual([]);
  });

  it('never lets a member see or remove another member’s device; an endpoint registered again moves to the new member', async () => {
    const alice = await newCitizen(api, 'Alice');
    const bob = await newCitizen(api, 'Bob');
    const device = await register(alice);
    expect(await devicesOf(bob)).toEqual([]);
    const bobDeletes = await api.request({ method: 'DELETE', url: `/api/me/push-subscriptions/${device.deviceId}`, cookie: bob.cookie });
    expect(bobDeletes.statusCode).toBe(404);
    expect(await devicesOf(alice)).toHaveLength(1);
    // The same browser, now signed in as Bob: the device is his, and Alice's news no longer reaches it.
    ok(await api.request({ method: 'POST', url: '/api/me/push-subscriptions', cookie: bob.cookie, payload: device.json }), 201);
    expect(await devicesOf(alice)).toEqual([]);
    expect((await devicesOf(bob)).map((d) => d.id)).toEqual([device.deviceId]);
    ok(await api.request({ method: 'DELETE', url: `/api/me/push-subscriptions/${device.deviceId}`, cookie: bob.cookie }));
    expect(await devicesOf(bob)).toEqual([]);
    const preferences = ok(await api.request({ method: 'GET', url: '/api/me/notification-preferences', cookie: bob.cookie })) as { push: boolean };
    expect(preferences.push).toBe(false);
  });

  it('answers 409 when the site sends no web push', async () => {
    const off = await startTestApi();
    try {
      expect(ok(await off.request({ method: 'GET', url: '/api/push/config' }))).toEqual({ enabled: false, publicKey: null });
      const cookie = await off.signInAs('citizen');
      const response = await off.request({ method: 'POST', url: '/api/me/push-subscriptions', cookie, payload: service.subscribe(vapid.publicKey).json });
      expect(response.statusCode).toBe(409);
    } finally {
      await off.close();
    }
  });
});

describe('delivery', () => {
  it('brings a government response to each signer’s device, encrypted, with public facts only; the acting minister, a mute and a topic switched off get none', async () => {
    const creator = await newCitizen(api, 'Creator');
    const signer = await newCitizen(api, 'Signer');
    const muter = await newCitizen(api, 'Muter');
    const optedOut = await newCitizen(api, 'Quiet');
    const petitionId = await newPetition(api, { creatorId: creator.id, termId, title: 'Light every village green' });
    for (const member of [signer, muter, optedOut]) await sign(api, member, petitionId);
    const ministerMember = { id: ROLE_PROFILES.rank6.id, cookie: minister };
    await sign(api, ministerMember, petitionId);
    const devices = {
      creator: await register(creator),
      signer: await register(signer),
      signerPhone: await register(signer),
      muter: await register(muter),
      optedOut: await register(optedOut),
      minister: await register(ministerMember),
    };
    ok(await api.request({ method: 'PUT', url: `/api/me/muted-petitions/${petitionId}`, cookie: muter.cookie }));
    ok(await api.request({ method: 'PATCH', url: '/api/me/notification-preferences', cookie: optedOut.cookie, payload: { topics: { responses: false } } }));

    await respond(api, minister, petitionId, 'The Government will light every village green by winter.');
    const report = await drain();
    expect(report.delivery.sent).toBe(3);

    for (const device of [devices.creator, devices.signer, devices.signerPhone]) {
      const [payload, ...more] = payloads(device);
      expect(more).toEqual([]);
      expect(payload).toMatchObject({
        v: 1,
        kind: 'response_added',
        petition: { id: petitionId, title: 'Light every village green' },
        url: `/petition/${petitionId}`,
      });
      expect(payload!.summary).toMatch(/^Government responded on \d{1,2} \w+ \d{4}$/);
      const [message] = service.held(device.id);
      expect(message!.topic).toBe(`petition-event-${payload!.eventId}`);
      expect(message!.urgency).toBe('normal');
      expect(message!.ttl).toBeGreaterThan(PUSH_TTL_SECONDS - 60);
      expect(message!.ttl).toBeLessThanOrEqual(PUSH_TTL_SECONDS);
      // Nothing private: no member's id or name, not the minister's either.
      for (const secret of [signer.id, creator.id, ROLE_PROFILES.rank6.id, 'Signer', 'Cabinet Minister', 'Home Secretary']) {
        expect(message!.text).not.toContain(secret);
      }
    }
    for (const device of [devices.muter, devices.optedOut, devices.minister]) expect(service.held(device.id)).toEqual([]);
    expect(service.rejected()).toEqual([]);
    // Delivered, so never again.
    const again = await drain();
    expect(again.delivery.claimed).toBe(0);
    expect(payloads(devices.signer)).toHaveLength(1);
    expect(await api.context.db.selectFrom('push_deliveries').select('id').execute()).toEqual([]);
    const listed = await devicesOf(signer);
    expect(listed.every((d) => d.endpoint && typeof (d as { lastDeliveredAt?: string | null }).lastDeliveredAt === 'string')).toBe(true);
  });

  it('forgets a device its push service says is gone (410, and 404)', async () => {
    const creator = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    const goneDevice = await register(creator);
    const member = await newCitizen(api);
    await sign(api, member, petitionId);
    const notFoundDevice = await register(member);
    service.answer({ status: 410, subscriptionId: goneDevice.id });
    service.answer({ status: 404, subscriptionId: notFoundDevice.id });
    await respond(api, minister, petitionId, 'A response that finds both devices gone.');
    const report = await drain();
    expect(report.delivery.gone).toBe(2);
    expect(service.scripted()).toEqual(
      expect.arrayContaining([
        { subscriptionId: goneDevice.id, status: 410 },
        { subscriptionId: notFoundDevice.id, status: 404 },
      ]),
    );
    expect(await devicesOf(creator)).toEqual([]);
    expect(await devicesOf(member)).toEqual([]);
    const rows = await api.context.db.selectFrom('push_subscriptions').select('id').where('id', 'in', [goneDevice.deviceId, notFoundDevice.deviceId]).execute();
    expect(rows).toEqual([]);
  });

  it('waits as long as a 429’s Retry-After says, and backs off after a 500, then delivers once', async () => {
    const creator = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    const busy = await register(creator);
    const member = await newCitizen(api);
    await sign(api, member, petitionId);
    const broken = await register(member);
    service.answer({ status: 429, subscriptionId: busy.id, headers: { 'retry-after': '120' } });
    service.answer({ status: 500, subscriptionId: broken.id });
    const start = Date.now();
    api.setNow(new Date(start));
    await respond(api, minister, petitionId, 'A response the push service is too busy for.');
    const first = await drain();
    expect(first.delivery).toMatchObject({ sent: 0, retrying: 2 });
    const waiting = await api.context.db.selectFrom('push_deliveries').select(['subscription_id', 'due_at', 'attempts', 'sending']).execute();
    const dueOf = (deviceId: number) => Date.parse(waiting.find((row) => row.subscription_id === deviceId)!.due_at) - start;
    expect(dueOf(busy.deviceId)).toBe(120_000);
    // The 500: exponential backoff from 10 s, with up to 20% jitter.
    expect(dueOf(broken.deviceId)).toBeGreaterThanOrEqual(10_000);
    expect(dueOf(broken.deviceId)).toBeLessThanOrEqual(12_000);
    expect(waiting.every((row) => row.attempts === 1 && row.sending === 0)).toBe(true);

    // The 429 paused that push service for this node: the other device's retry waits for it too, spending no attempt.
    api.setNow(new Date(start + 60_000));
    const middle = await drain();
    expect(middle.delivery).toMatchObject({ sent: 0, deferred: 1 });
    const deferred = await api.context.db.selectFrom('push_deliveries').select(['due_at', 'attempts']).where('subscription_id', '=', broken.deviceId).executeTakeFirstOrThrow();
    expect(deferred).toEqual({ due_at: new Date(start + 120_000).toISOString(), attempts: 1 });

    api.setNow(new Date(start + 121_000));
    expect((await drain()).delivery.sent).toBe(2);
    expect(payloads(busy)).toHaveLength(1);
    expect(payloads(broken)).toHaveLength(1);
    expect(service.scripted()).toEqual(expect.arrayContaining([{ subscriptionId: busy.id, status: 429 }, { subscriptionId: broken.id, status: 500 }]));
  });

  it('sends every message once when two queue workers run at the same time', async () => {
    const creator = await newCitizen(api);
    const petitionId = await newPetition(api, { creatorId: creator.id, termId });
    const subscriptions: LocalSubscription[] = [];
    for (let index = 0; index < 60; index += 1) {
      const member = await newCitizen(api);
      await sign(api, member, petitionId);
      subscriptions.push(await register(member));
    }
    service.holdAnswers(20);
    try {
      await respond(api, minister, petitionId, 'A response for sixty devices.');
      const { db, dialect } = api.context;
      // Queue the 60 messages first, so that both workers compete for them, 10 at a time.
      await takeInEvents(db, dialect, api.context.now());
      let queued = 0;
      for (let page: number | null = 0; page !== null; page = await fanOutNextPage(db, dialect, { now: api.context.now(), claimMs: 60_000 })) queued += page;
      // (The creator's "reached 10/20 signatures" events reach no device: the creator registered none.)
      expect(queued).toBe(60);
      // Two nodes' workers (fresh ones: the context's own still pauses this push service after the 429 above).
      const nodes = [0, 1].map(() => createPushWorker({ db, dialect, settings: api.context.webPush, now: api.context.now, batchSize: 10 }));
      const reports = await Promise.all(nodes.map((node) => node.drain()));
      expect(reports.every((report) => report.delivery.failed === 0 && report.delivery.sent > 0)).toBe(true);
      expect(reports.reduce((sum, report) => sum + report.delivery.sent, 0)).toBe(60);
    } finally {
      service.holdAnswers(0);
    }
    for (const subscription of subscriptions) expect(service.held(subscription.id)).toHaveLength(1);
    const topics = service.accepted().filter((m) => subscriptions.some((s) => s.id === m.subscriptionId)).map((m) => `${m.subscriptionId}:${m.topic}`);
    expect(new Set(topics).size).toBe(topics.length);
  });

  it('removes the devices registered in a session when its member signs out', async () => {
    const member = await newCitizen(api);
    const laptop = await register(member);
    const otherSession = await api.signIn({ id: member.id, username: `member${member.id}`, displayName: 'Member', avatarUrl: null, citizenRank: 1, governmentRank: 0 });
    const phone = await register({ id: member.id, cookie: otherSession });
    ok(await api.request({ method: 'POST', url: `/api/auth/roblox/logout/${member.id}`, cookie: member.cookie }));
    expect((await devicesOf({ id: member.id, cookie: otherSession })).map((d) => d.id)).toEqual([phone.deviceId]);
    expect(laptop.deviceId).not.toBe(phone.deviceId);
  });
});
