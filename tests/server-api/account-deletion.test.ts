/**
 * Deleting a member's data over HTTP (docs/privacy.md#deleting-your-data): by the member, with a
 * typed confirmation the server checks, and by the administrator for a member. Signatures on open
 * petitions go (counts and statuses follow as unsigning would), those on closed petitions stay
 * anonymised, created petitions stay by "Deleted member", every session and open stream ends (on
 * this node at once, on others within a tick), and the audit entry names nobody.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DELETION_CONFIRMATION, DELETED_MEMBER_NAME, PRIVACY_ERRORS, isAnonymousUserId } from '../../src-shared/domain/privacy-constants.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { createSessionStreams } from '../../src-server/sessions/session-streams.ts';
import { hashToken } from '../../src-server/sessions/session-service.ts';
import type { UserProfile } from '../../src-server/users/user-repository.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { openEventStream } from '../support/sse-client.ts';
import { VALID_PETITION } from './public-test-data.ts';

const MEMBER: UserProfile = { id: '86420135', username: 'quillonmarsh', displayName: 'Quillon Marsh', avatarUrl: null, citizenRank: 1, governmentRank: 0 };
const OTHER: UserProfile = { id: '86420136', username: 'wrenfallow', displayName: 'Wren Fallow', avatarUrl: null, citizenRank: 1, governmentRank: 0 };

let api: TestApi;
let baseUrl: string;
let admin: string;

beforeAll(async () => {
  api = await startTestApi();
  await seedTerm(api, { name: 'Term D', startDate: '2020-01-01', endDate: '2035-12-31' });
  admin = await api.signInAs('admin');
  baseUrl = await api.listen();
});
afterAll(async () => api.close());

const petition = async (id: number) => (await api.request({ url: `/api/petitions/${id}` })).json<Petition & { signers: { id: string; displayName: string }[] }>();
const sessionOf = async (cookie: string) => (await api.request({ url: '/api/auth/session', cookie })).json<{ user: { id: string } | null }>();
const deleteOwn = (cookie: string, confirmation: string) => api.request({ method: 'POST', url: '/api/me/deletion', payload: { confirmation }, cookie });

describe("a member deletes their data", () => {
  it('removes open signatures (count and status follow), anonymises closed ones, keeps their petition, and signs them out everywhere', async () => {
    const web = await api.signIn(MEMBER);
    const second = await api.signIn(MEMBER);
    // An open petition at 9 signatures: the member's makes 10 and it awaits a government response.
    const open = (await seedPetition(api, { signatures: 9 })).id;
    expect((await api.request({ method: 'POST', url: `/api/petitions/${open}/sign`, cookie: web })).statusCode).toBe(200);
    expect(await petition(open)).toMatchObject({ signatures: 10, status: 'awaiting_government_response' });
    // Their own petition (they sign it as they create it), and a report of another.
    const created = (await api.request({ method: 'POST', url: '/api/petitions', payload: VALID_PETITION, cookie: web })).json<Petition>();
    const reported = (await seedPetition(api, { signatures: 1 })).id;
    expect((await api.request({ method: 'POST', url: `/api/petitions/${reported}/reports`, payload: { reason: 'spam' }, cookie: web })).statusCode).toBe(201);
    // A petition they signed that has closed since.
    const closed = (await seedPetition(api, { signatures: 2 })).id;
    expect((await api.request({ method: 'POST', url: `/api/petitions/${closed}/sign`, cookie: web })).statusCode).toBe(200);
    expect((await api.request({ method: 'PATCH', url: `/api/petitions/${closed}/status`, payload: { status: 'closed' }, cookie: admin })).statusCode).toBe(200);
    // Live streams of both sessions, and one on "another node" (a second watcher on the same database).
    const streams = await Promise.all([web, second].map((cookie) => openEventStream(`${baseUrl}/api/site-status/events`, { cookie })));
    expect(streams.map((s) => s.status)).toEqual([200, 200]);
    const otherNode = createSessionStreams(api.context.db, { tickMs: 50 });
    let endedElsewhere = false;
    const secondHash = hashToken(second.split('=')[1]!);
    otherNode.add(secondHash, () => (endedElsewhere = true));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(endedElsewhere).toBe(false);

    const refused = await deleteOwn(web, 'delete');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ detail: PRIVACY_ERRORS.deletionConfirmation });
    expect((await sessionOf(web)).user?.id).toBe(MEMBER.id);

    const deleted = await deleteOwn(web, ACCOUNT_DELETION_CONFIRMATION);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toMatchObject({ signaturesRemoved: 2, signaturesAnonymised: 1, petitionsKept: 1 });
    expect(String(deleted.headers['set-cookie'])).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);

    // Signed out everywhere: both sessions, both streams on this node, and the stream on the other node within a tick.
    expect((await sessionOf(web)).user).toBeNull();
    expect((await sessionOf(second)).user).toBeNull();
    await Promise.all(streams.map((s) => s.ended));
    await expect.poll(() => endedElsewhere, { timeout: 2_000 }).toBe(true);
    otherNode.close();

    // The open petition is back to 9 and its status follows; their petition stays without its creator and their signature.
    expect(await petition(open)).toMatchObject({ signatures: 9, status: 'open' });
    const kept = await petition(created.id);
    expect(kept).toMatchObject({ signatures: 0, creator: DELETED_MEMBER_NAME });
    // The closed petition keeps its count; the member's signature is there without their id or name.
    const closedAfter = await petition(closed);
    expect(closedAfter.signatures).toBe(3);
    expect(closedAfter.signers.map((s) => s.id)).not.toContain(MEMBER.id);
    expect(closedAfter.signers.filter((s) => isAnonymousUserId(s.id)).map((s) => s.displayName)).toEqual([DELETED_MEMBER_NAME]);
    // Their report still counts, by nobody known.
    const report = await api.context.db.selectFrom('petition_reports').select('reporter_id').where('petition_id', '=', reported).executeTakeFirstOrThrow();
    expect(isAnonymousUserId(report.reporter_id)).toBe(true);

    // One audit entry, naming nobody.
    const audit = await api.context.db.selectFrom('audit_log').selectAll().where('action', '=', 'account.delete').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: 'system', target_type: 'account', target_id: null });
    expect(JSON.stringify(audit[0])).not.toMatch(new RegExp(`${MEMBER.id}|${MEMBER.username}|${MEMBER.displayName}`));
    expect(JSON.parse(audit[0]!.after!)).toEqual({ requestedBy: 'member', signaturesRemoved: 2, signaturesAnonymised: 1, petitionsKept: 1 });

    // Signing in again starts afresh: nothing of before is theirs.
    const again = await api.signIn(MEMBER);
    expect((await api.request({ method: 'POST', url: `/api/petitions/${open}/sign`, cookie: again })).statusCode).toBe(200);
  });

  it('needs a signed-in member and a confirmation in the body', async () => {
    expect((await api.request({ method: 'POST', url: '/api/me/deletion', payload: { confirmation: ACCOUNT_DELETION_CONFIRMATION } })).statusCode).toBe(401);
    const cookie = await api.signIn(OTHER);
    expect((await api.request({ method: 'POST', url: '/api/me/deletion', payload: {}, cookie })).statusCode).toBe(400);
    expect((await api.request({ method: 'POST', url: '/api/me/deletion', payload: { confirmation: 'DELETE', also: 1 }, cookie })).statusCode).toBe(400);
    expect((await sessionOf(cookie)).user?.id).toBe(OTHER.id);
  });
});

describe("the administrator deletes a member's data at their request", () => {
  it('is refused to anyone else, checks the confirmation, and answers 404 once the member is gone', async () => {
    const member = await api.signIn(OTHER);
    const signed = (await seedPetition(api, { signatures: 1 })).id;
    expect((await api.request({ method: 'POST', url: `/api/petitions/${signed}/sign`, cookie: member })).statusCode).toBe(200);
    const url = `/api/users/${OTHER.id}/deletion`;
    const leader = await api.signInAs('rank8');
    expect((await api.request({ method: 'POST', url, payload: { confirmation: ACCOUNT_DELETION_CONFIRMATION }, cookie: leader })).statusCode).toBe(403);
    expect((await api.request({ method: 'POST', url, payload: { confirmation: ACCOUNT_DELETION_CONFIRMATION }, cookie: member })).statusCode).toBe(403);
    expect((await api.request({ method: 'POST', url, payload: { confirmation: 'yes' }, cookie: admin })).statusCode).toBe(400);
    expect((await api.request({ method: 'POST', url: '/api/users/0042/deletion', payload: { confirmation: ACCOUNT_DELETION_CONFIRMATION }, cookie: admin })).statusCode).toBe(400);

    const done = await api.request({ method: 'POST', url, payload: { confirmation: ACCOUNT_DELETION_CONFIRMATION }, cookie: admin });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ signaturesRemoved: 1, signaturesAnonymised: 0, petitionsKept: 0 });
    expect((await petition(signed)).signatures).toBe(1);
    expect((await sessionOf(member)).user).toBeNull();
    // The administrator stays signed in, and the entry is theirs, without the member's id.
    expect((await sessionOf(admin)).user).not.toBeNull();
    const entry = await api.context.db.selectFrom('audit_log').selectAll().where('action', '=', 'account.delete').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor_id: '9000', target_id: null });
    expect(JSON.stringify(entry)).not.toContain(OTHER.id);

    const again = await api.request({ method: 'POST', url, payload: { confirmation: ACCOUNT_DELETION_CONFIRMATION }, cookie: admin });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ detail: PRIVACY_ERRORS.memberNotFound });
  });
});
