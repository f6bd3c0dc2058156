/**
 * Role × endpoint matrix: every call of the API against every kind of caller, each on fresh fixtures.
 * A cell is either the exact refusal (401/403) or "allowed" (any status that is not a refusal).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELETE_ALL_CONFIRMATION } from '../../src-shared/domain/constants.ts';
import { recordPetitionEvent } from '../../src-server/feed/events.ts';
import { createJob } from '../../src-server/integrity/invalidation-jobs.ts';
import { ADMIN_ID, ROLE_PROFILES, startTestApi, type RoleName, type TestApi } from '../support/api-harness.ts';

type Caller = 'visitor' | RoleName;
const CALLERS: Caller[] = ['visitor', 'nonCitizen', 'citizen', 'rank6', 'rank7', 'rank8', 'admin', 'bannedCitizen'];
type Expect = 'ok' | 401 | 403;

interface Fixture {
  petitionId: number;
  termId: number;
  /** An event every caller's feed shows (they all signed its petition before it). */
  eventId: number;
  /** A queued invalidation (signature integrity): cancellable, not yet restorable (409 for the administrator). */
  invalidationId: number;
}

interface Call {
  name: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  url: (f: Fixture, caller: Caller) => string;
  body?: (f: Fixture, caller: Caller) => unknown;
  expect: Record<Caller, Expect>;
}

const everyone = (value: Expect): Record<Caller, Expect> =>
  Object.fromEntries(CALLERS.map((c) => [c, value])) as Record<Caller, Expect>;
const signedIn = (): Record<Caller, Expect> => ({ ...everyone('ok'), visitor: 401 });
const adminOnly = (): Record<Caller, Expect> => ({ ...everyone(403), visitor: 401, admin: 'ok' });
const participants = (): Record<Caller, Expect> => ({ ...signedIn(), nonCitizen: 403 });
const ministers = (): Record<Caller, Expect> => ({ ...everyone(403), visitor: 401, rank6: 'ok', rank7: 'ok', rank8: 'ok', admin: 'ok' });
const seniorMinisters = (): Record<Caller, Expect> => ({ ...ministers(), rank6: 403 });
/** Moderation (docs/moderation.md#who-can-do-what): rank 7 and up, and the administrator. */
const moderators = seniorMinisters;

const ownId = (caller: Caller) => (caller === 'visitor' ? ROLE_PROFILES.citizen.id : ROLE_PROFILES[caller].id);
const validPetition = {
  title: 'Fund more public libraries',
  description: 'Public libraries are closing across the country and need stable funding now.',
  tags: ['Public Services'],
};
// An office every responding rank may use (docs/roles.md#offices-tied-to-a-rank).
const response = { response_text: 'The government has considered this petition.', added_by_role: 'Home Secretary' };
const debate = { status: 'scheduled', date: '2026-12-01', location: '' };

const CALLS: Call[] = [
  { name: 'list petitions', method: 'GET', url: () => '/api/petitions', expect: everyone('ok') },
  { name: 'petition detail', method: 'GET', url: (f) => `/api/petitions/${f.petitionId}`, expect: everyone('ok') },
  { name: 'petition signers', method: 'GET', url: (f) => `/api/petitions/${f.petitionId}/signers`, expect: everyone('ok') },
  { name: 'petition count', method: 'GET', url: (f) => `/api/petitions/${f.petitionId}/count`, expect: everyone('ok') },
  { name: 'signatures by hour', method: 'GET', url: (f) => `/api/petitions/${f.petitionId}/signatures-by-hour`, expect: everyone('ok') },
  { name: 'CSV export', method: 'GET', url: () => '/api/petitions.csv', expect: everyone('ok') },
  { name: 'home stats', method: 'GET', url: () => '/api/stats', expect: everyone('ok') },
  { name: 'list terms', method: 'GET', url: () => '/api/parliamentary-terms', expect: everyone('ok') },
  { name: 'site status', method: 'GET', url: () => '/api/site-status', expect: everyone('ok') },
  { name: 'check expired', method: 'POST', url: () => '/api/petitions/check-expired', expect: everyone('ok') },
  { name: 'session', method: 'GET', url: () => '/api/auth/session', expect: everyone('ok') },
  { name: 'daily allowance', method: 'GET', url: () => '/api/petitions/daily-allowance', expect: signedIn() },
  { name: 'own user', method: 'GET', url: (_f, c) => `/api/auth/roblox/user/${ownId(c)}`, expect: signedIn() },
  { name: 'create petition', method: 'POST', url: () => '/api/petitions', body: () => validPetition, expect: { ...participants(), bannedCitizen: 403 } },
  { name: 'sign', method: 'POST', url: (f) => `/api/petitions/${f.petitionId}/sign`, body: () => ({}), expect: participants() },
  { name: 'unsign', method: 'POST', url: (f) => `/api/petitions/${f.petitionId}/unsign`, body: () => ({}), expect: participants() },
  { name: 'add response', method: 'POST', url: (f) => `/api/petitions/${f.petitionId}/government-response`, body: () => response, expect: ministers() },
  { name: 'remove response', method: 'DELETE', url: (f) => `/api/petitions/${f.petitionId}/government-response`, expect: ministers() },
  { name: 'add debate', method: 'POST', url: (f) => `/api/petitions/${f.petitionId}/debate-info`, body: () => debate, expect: seniorMinisters() },
  { name: 'remove debate', method: 'DELETE', url: (f) => `/api/petitions/${f.petitionId}/debate-info`, expect: seniorMinisters() },
  { name: 'delete petition', method: 'DELETE', url: (f) => `/api/petitions/${f.petitionId}`, expect: seniorMinisters() },
  { name: 'chat notification', method: 'POST', url: () => '/api/notifications/discord', body: () => ({ embeds: [{ title: 'Hello', description: 'Test', color: 1 }] }), expect: ministers() },
  { name: 'assign petition', method: 'PATCH', url: (f) => `/api/petitions/${f.petitionId}`, body: (f) => ({ termId: f.termId }), expect: adminOnly() },
  { name: 'status override', method: 'PATCH', url: (f) => `/api/petitions/${f.petitionId}/status`, body: () => ({ status: 'closed' }), expect: adminOnly() },
  { name: 'delete all petitions', method: 'POST', url: () => '/api/petitions/delete-all', body: () => ({ confirmation: DELETE_ALL_CONFIRMATION }), expect: adminOnly() },
  { name: 'create term', method: 'POST', url: () => '/api/parliamentary-terms', body: () => ({ name: 'Term 99', startDate: '2030-01-01', endDate: '2030-06-01' }), expect: adminOnly() },
  { name: 'edit term', method: 'PATCH', url: (f) => `/api/parliamentary-terms/${f.termId}`, body: () => ({ name: 'Renamed term' }), expect: adminOnly() },
  { name: 'preview term change', method: 'POST', url: (f) => `/api/parliamentary-terms/${f.termId}/preview`, body: () => ({ status: 'completed' }), expect: adminOnly() },
  { name: 'delete term', method: 'DELETE', url: (f) => `/api/parliamentary-terms/${f.termId}`, expect: adminOnly() },
  { name: 'maintenance toggle', method: 'PUT', url: () => '/api/site-status', body: () => ({ maintenance: false }), expect: adminOnly() },
  { name: 'ban stats', method: 'GET', url: () => '/api/ban-stats', expect: adminOnly() },
  { name: 'list bans', method: 'GET', url: () => '/api/bans', expect: adminOnly() },
  { name: 'ban user', method: 'PUT', url: () => '/api/bans/12345', body: () => ({ reason: 'Spam' }), expect: adminOnly() },
  { name: 'unban user', method: 'DELETE', url: () => '/api/bans/12345', expect: adminOnly() },
  { name: 'audit log', method: 'GET', url: () => '/api/audit-log', expect: adminOnly() },
  // Community safety (docs/moderation.md).
  { name: 'report petition', method: 'POST', url: (f) => `/api/petitions/${f.petitionId}/reports`, body: () => ({ reason: 'spam' }), expect: { ...participants(), bannedCitizen: 403 } },
  { name: 'similar petitions', method: 'GET', url: () => '/api/petitions/similar?title=Matrix%20petition', expect: everyone('ok') },
  { name: 'moderation queue', method: 'GET', url: () => '/api/moderation/queue', expect: moderators() },
  { name: 'moderation case', method: 'GET', url: (f) => `/api/moderation/petitions/${f.petitionId}`, expect: moderators() },
  { name: 'moderate petition', method: 'POST', url: (f) => `/api/petitions/${f.petitionId}/moderation`, body: () => ({ decision: 'hide', reason: 'Matrix' }), expect: moderators() },
  { name: 'bulk moderation', method: 'POST', url: () => '/api/petitions/bulk-moderation', body: (f) => ({ items: [{ petitionId: f.petitionId, action: { decision: 'keep' } }] }), expect: moderators() },
  { name: 'list rejection reasons', method: 'GET', url: () => '/api/rejection-reasons', expect: moderators() },
  { name: 'save rejection reason', method: 'PUT', url: () => '/api/rejection-reasons/matrix_reason', body: () => ({ title: 'Matrix', publicText: 'A matrix reason.', hidden: false }), expect: adminOnly() },
  { name: 'delete rejection reason', method: 'DELETE', url: () => '/api/rejection-reasons/matrix_reason', expect: adminOnly() },
  { name: 'my petitions', method: 'GET', url: () => '/api/me/petitions?list=created', expect: signedIn() },
  { name: 'my notifications', method: 'GET', url: () => '/api/me/notifications', expect: signedIn() },
  { name: 'unread count', method: 'GET', url: () => '/api/me/notifications/unread-count', expect: signedIn() },
  { name: 'mark notification read', method: 'POST', url: (f) => `/api/me/notifications/${f.eventId}/read`, expect: signedIn() },
  { name: 'mark all read', method: 'POST', url: () => '/api/me/notifications/read-all', body: () => ({}), expect: signedIn() },
  { name: 'notification preferences', method: 'GET', url: () => '/api/me/notification-preferences', expect: signedIn() },
  { name: 'change notification preferences', method: 'PATCH', url: () => '/api/me/notification-preferences', body: () => ({ topics: { debates: true } }), expect: signedIn() },
  { name: 'muted petitions', method: 'GET', url: () => '/api/me/muted-petitions', expect: signedIn() },
  { name: 'mute a petition', method: 'PUT', url: (f) => `/api/me/muted-petitions/${f.petitionId}`, expect: signedIn() },
  { name: 'unmute a petition', method: 'DELETE', url: (f) => `/api/me/muted-petitions/${f.petitionId}`, expect: signedIn() },
  { name: 'notification audience', method: 'GET', url: (f) => `/api/petitions/${f.petitionId}/notification-audience?topic=responses`, expect: ministers() },
  { name: 'push config', method: 'GET', url: () => '/api/push/config', expect: everyone('ok') },
  { name: 'my push devices', method: 'GET', url: () => '/api/me/push-subscriptions', expect: signedIn() },
  // This server sends no web push: a signed-in member gets 409 (not a refusal), a visitor 401 first.
  { name: 'register a push device', method: 'POST', url: () => '/api/me/push-subscriptions', body: (_f, c) => pushSubscriptionOf(c), expect: signedIn() },
  { name: 'remove my push device', method: 'DELETE', url: (_f, c) => `/api/me/push-subscriptions/${pushDeviceIds.get(c) ?? 1}`, expect: signedIn() },
  { name: 'unusual signing', method: 'GET', url: () => '/api/integrity/unusual-signing', expect: adminOnly() },
  { name: 'preview invalidation', method: 'GET', url: (f) => `/api/integrity/invalidations/preview?petition=${f.petitionId}`, expect: adminOnly() },
  {
    name: 'request invalidation',
    method: 'POST',
    url: () => '/api/integrity/invalidations',
    body: (f) => ({ criteria: { petitionId: f.petitionId, accountYoungerThanDays: 30 }, reason: 'Matrix' }),
    expect: adminOnly(),
  },
  { name: 'list invalidations', method: 'GET', url: () => '/api/integrity/invalidations', expect: adminOnly() },
  { name: 'one invalidation', method: 'GET', url: (f) => `/api/integrity/invalidations/${f.invalidationId}`, expect: adminOnly() },
  { name: 'cancel invalidation', method: 'POST', url: (f) => `/api/integrity/invalidations/${f.invalidationId}/cancel`, body: () => ({}), expect: adminOnly() },
  { name: 'restore invalidation', method: 'POST', url: (f) => `/api/integrity/invalidations/${f.invalidationId}/restore`, body: () => ({ reason: 'Matrix' }), expect: adminOnly() },
];

/** One web push device per caller, registered in beforeAll; each caller removes only its own. */
const pushDeviceIds = new Map<Caller, number>();
const pushSubscriptionOf = (caller: Caller) => ({
  endpoint: `https://fcm.googleapis.com/fcm/send/matrix-${caller}`,
  keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
});

describe('role × endpoint matrix', () => {
  let api: TestApi;
  const cookies = new Map<Caller, string | undefined>();

  beforeAll(async () => {
    api = await startTestApi();
    cookies.set('visitor', undefined);
    for (const caller of CALLERS) if (caller !== 'visitor') cookies.set(caller, await api.signInAs(caller));
    const stamp = new Date().toISOString();
    for (const caller of CALLERS) {
      if (caller === 'visitor') continue;
      const { endpoint, keys } = pushSubscriptionOf(caller);
      const row = await api.context.db
        .insertInto('push_subscriptions')
        .values({ user_id: ROLE_PROFILES[caller].id, endpoint, p256dh: keys.p256dh, auth: keys.auth, created_at: stamp, updated_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      pushDeviceIds.set(caller, row.id);
    }
  });
  afterAll(() => api.close());

  /** Fresh term and petition per cell, so one cell's change (delete, close) never leaks into another. */
  async function fixture(): Promise<Fixture> {
    const now = new Date().toISOString();
    const term = await api.context.db
      .insertInto('terms')
      .values({ name: 'Current term', start_date: '2020-01-01', end_date: '2099-12-31', status: 'current', created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const petition = await api.context.db
      .insertInto('petitions')
      .values({
        title: 'Matrix petition',
        description: 'A petition used to check who may call which endpoint.',
        creator_name: 'Someone',
        creator_id: '1',
        tags: JSON.stringify(['Rights']),
        category: 'General',
        term_id: term.id,
        status: 'open',
        signature_count: 0,
        government_response: 'Existing response',
        government_response_meta: JSON.stringify({ addedBy: 'x', addedByRole: 'Prime Minister', addedAt: now, editedBy: null, editedByRole: null, editedAt: null }),
        debate_info: JSON.stringify({ status: 'scheduled', date: '2026-12-01', location: 'Westminster Hall', hansardLink: null, notDebatedReason: null }),
        debate_info_meta: JSON.stringify({ addedBy: 'x', addedByRole: 'Government Official', addedAt: now, editedBy: null, editedByRole: null, editedAt: null }),
        version: 1,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Bans are only the banned citizen's; the matrix's own ban/unban cell must not leak.
    await api.context.db.deleteFrom('bans').where('user_id', '!=', ROLE_PROFILES.bannedCitizen.id).execute();
    await api.context.db.insertInto('bans').values({ user_id: '12345', reason: 'Spam', banned_by: 'test', banned_at: now }).execute();
    // The rejection reason the delete cell deletes (an earlier cell may have deleted it).
    await api.context.db
      .insertInto('rejection_reasons')
      .values({ code: 'matrix_reason', title: 'Matrix', public_text: 'A matrix reason.', hidden: 0, position: 99, updated_at: now })
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
    const invalidation = await createJob(api.context.db, {
      kind: 'invalidate',
      criteria: { petitionId: petition.id, signedFrom: null, signedTo: null, accountYoungerThanDays: null, userIds: null },
      restoresJobId: null,
      reason: 'Matrix fixture',
      requester: { id: ADMIN_ID, rank: 9, government_rank: 0, can_sign: true, userType: 'System Administrator' },
      now: new Date(),
    });
    const eventId = await followedEvent(term.id, now);
    return { petitionId: petition.id, termId: term.id, eventId, invalidationId: invalidation.id };
  }

  /** A petition of its own that every profile signed, then closed by staff: one event in everyone's feed. */
  async function followedEvent(termId: number, signedAt: string): Promise<number> {
    const { id: petitionId } = await api.context.db
      .insertInto('petitions')
      .values({
        title: 'Followed petition',
        description: 'A petition every caller signed, so its event is in every caller’s feed.',
        creator_name: 'Someone',
        creator_id: '1',
        tags: JSON.stringify(['Rights']),
        category: 'General',
        term_id: termId,
        status: 'closed',
        signature_count: Object.keys(ROLE_PROFILES).length,
        version: 1,
        created_at: signedAt,
        updated_at: signedAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await api.context.db
      .insertInto('signatures')
      .values(Object.values(ROLE_PROFILES).map((p) => ({ petition_id: petitionId, user_id: p.id, username: p.username, display_name: p.displayName, signed_at: signedAt })))
      .execute();
    await api.context.db.transaction().execute((trx) =>
      recordPetitionEvent(trx, { petitionId, detail: { kind: 'petition_closed', reason: 'staff' }, actorId: null, at: new Date(Date.parse(signedAt) + 1) }),
    );
    const event = await api.context.db.selectFrom('petition_events').select('id').where('petition_id', '=', petitionId).executeTakeFirstOrThrow();
    return event.id;
  }

  for (const call of CALLS) {
    for (const caller of CALLERS) {
      const expected = call.expect[caller];
      it(`${call.name} as ${caller} → ${expected}`, async () => {
        const f = await fixture();
        // Creation is limited per day (deleted petitions still count): clear earlier cells' creations by this caller.
        await api.context.db.deleteFrom('petitions').where('creator_id', '=', ownId(caller)).execute();
        await api.context.db.deleteFrom('petition_creations').where('creator_id', '=', ownId(caller)).execute();
        const res = await api.request({
          method: call.method,
          url: call.url(f, caller),
          ...(call.body ? { payload: call.body(f, caller) as object } : {}),
          cookie: cookies.get(caller),
        });
        if (expected === 'ok') {
          expect([401, 403], `${res.statusCode} ${res.body}`).not.toContain(res.statusCode);
          expect(res.statusCode, res.body).toBeLessThan(500);
          expect(res.statusCode, res.body).not.toBe(404);
        } else {
          expect(res.statusCode, res.body).toBe(expected);
          expect(res.json().detail).toEqual(expect.any(String));
        }
      });
    }
  }
});
