/**
 * Every staff action through its one API call (src-shared/console/staff-action-calls.ts), against
 * the real server over HTTP, signed in with the web app's session cookie: the web path
 * (`directWrites`, the answer comes back), the console path (the same action with an
 * Idempotency-Key, sent twice, applied once), and a label for every audit action they write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src-shared/api/client.ts';
import { performStaffAction, type StaffActionOf } from '../../src-shared/console/staff-action-calls.ts';
import { StaffActionSchema, type StaffActionKind } from '../../src-shared/console/staff-actions.ts';
import { AUDIT_ACTIONS, isAuditAction } from '../../src-shared/domain/audit-actions.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { directWrites, isQueued } from '../../src-renderer/staff/lib/staffWrites.tsx';
import { signInAs } from '../server-auth/browser.ts';
import { sessionCookie } from '../server-auth/support.ts';
import { seedPetition } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let client: ApiClient;

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  const { jar } = await signInAs(stack, 'System Administrator');
  const cookie = `${stack.context.cookie.name}=${sessionCookie(stack, jar) ?? ''}`;
  client = createApiClient({ baseUrl: stack.baseUrl, headers: () => ({ cookie }) });
});
afterAll(async () => {
  await stack?.close();
});

async function auditActions(targetType: string, targetId: string | number): Promise<string[]> {
  const rows = await stack.context.db
    .selectFrom('audit_log')
    .select('action')
    .where('target_type', '=', targetType)
    .where('target_id', '=', String(targetId))
    .orderBy('id')
    .execute();
  return rows.map((row) => row.action);
}

describe('a staff action is one API call', () => {
  it('performs every kind of action, and the server does what the action says', async () => {
    const performed = new Set<StaffActionKind>();
    async function perform<K extends StaffActionKind>(action: StaffActionOf<K>) {
      performed.add(action.kind);
      return performStaffAction<K>(client, action);
    }

    const term = await perform({ kind: 'term.create', body: { name: 'Calls term', startDate: '2031-01-01', endDate: '2031-12-31' } });
    expect(term.name).toBe('Calls term');
    expect((await perform({ kind: 'term.update', termId: term.id, body: { name: 'Calls term, renamed' } })).name).toBe('Calls term, renamed');

    const { id: petitionId } = await seedPetition(stack.context, { signatures: 12 });
    let petition: Petition = await perform({ kind: 'petition.assignTerm', petitionId, baseVersion: 1, termId: term.id });
    expect(petition.termId).toBe(term.id);
    petition = await perform({
      kind: 'response.save',
      petitionId,
      baseVersion: petition.version,
      body: { response_text: 'The Government will act.', added_by_role: 'Chancellor of the Exchequer' },
    });
    expect(petition.governmentResponse).toBe('The Government will act.');
    petition = await perform({ kind: 'response.remove', petitionId, baseVersion: petition.version });
    expect(petition.governmentResponse).toBeNull();
    petition = await perform({ kind: 'debate.save', petitionId, baseVersion: petition.version, body: { status: 'scheduled', date: '2031-03-01' } });
    expect(petition.debateInfo).toMatchObject({ status: 'scheduled', date: '2031-03-01' });
    petition = await perform({ kind: 'debate.remove', petitionId, baseVersion: petition.version });
    expect(petition.debateInfo).toBeNull();
    petition = await perform({ kind: 'petition.setStatus', petitionId, baseVersion: petition.version, status: 'closed' });
    expect(petition.status).toBe('closed');
    // A stale base version is refused (If-Match), not applied over the newer petition.
    await expect(perform({ kind: 'petition.setStatus', petitionId, baseVersion: 1, status: 'open' })).rejects.toMatchObject({ status: 412 });
    await perform({ kind: 'petition.delete', petitionId, baseVersion: petition.version });
    await expect(client.getPetition(petitionId)).rejects.toMatchObject({ status: 404 });
    await perform({ kind: 'term.delete', termId: term.id });

    expect((await perform({ kind: 'ban.add', userId: '700001', body: { reason: 'Spam' } })).reason).toBe('Spam');
    await perform({ kind: 'ban.remove', userId: '700001' });
    expect((await perform({ kind: 'site.maintenance', maintenance: true })).maintenance).toBe(true);
    expect((await perform({ kind: 'site.maintenance', maintenance: false })).maintenance).toBe(false);

    // Community safety (docs/moderation.md): the four decisions and the rejection reasons list.
    const { id: moderatedId } = await seedPetition(stack.context);
    let moderated: Petition = await perform({ kind: 'moderation.hide', petitionId: moderatedId, baseVersion: 1, reason: 'Checking a claim' });
    expect(moderated.moderation).toMatchObject({ state: 'hidden', note: 'Checking a claim' });
    moderated = await perform({ kind: 'moderation.keep', petitionId: moderatedId, baseVersion: moderated.version });
    expect(moderated.moderation).toBeUndefined();
    moderated = await perform({ kind: 'moderation.reject', petitionId: moderatedId, baseVersion: moderated.version, reasonCode: 'unclear' });
    expect(moderated.moderation).toMatchObject({ state: 'rejected', reasonCode: 'unclear' });
    await expect(perform({ kind: 'moderation.restore', petitionId: moderatedId, baseVersion: 1 })).rejects.toMatchObject({ status: 412 });
    moderated = await perform({ kind: 'moderation.restore', petitionId: moderatedId, baseVersion: moderated.version });
    expect(moderated.moderation).toBeUndefined();
    const reason = await perform({ kind: 'rejectionReason.save', code: 'calls_reason', body: { title: 'Calls', publicText: 'A reason for the calls test.', hidden: true } });
    expect(reason).toMatchObject({ code: 'calls_reason', hidden: true, inUse: 0 });
    await perform({ kind: 'rejectionReason.delete', code: 'calls_reason' });
    expect((await client.listRejectionReasons()).some((r) => r.code === 'calls_reason')).toBe(false);
    const { id: pushed } = await seedPetition(stack.context, { signatures: 3 });
    const invalidation = await perform({ kind: 'signatures.invalidate', criteria: { petitionId: pushed }, reason: 'Alternate accounts', previewedMatching: 3 });
    expect(invalidation).toMatchObject({ kind: 'invalidate', state: 'queued' });
    expect(await perform({ kind: 'signatures.cancel', jobId: invalidation.id })).toMatchObject({ state: 'cancelled' });
    expect(await perform({ kind: 'signatures.restore', jobId: invalidation.id, reason: 'Nothing moved' })).toMatchObject({ kind: 'restore', restoresJobId: invalidation.id });

    expect([...performed].sort()).toEqual(StaffActionSchema.options.map((option) => option.shape.kind.value).sort());
    expect(await auditActions('petition', petitionId)).toEqual([
      AUDIT_ACTIONS.petitionAssignTerm,
      AUDIT_ACTIONS.responseAdd,
      AUDIT_ACTIONS.responseRemove,
      AUDIT_ACTIONS.debateAdd,
      AUDIT_ACTIONS.debateRemove,
      AUDIT_ACTIONS.petitionStatus,
      AUDIT_ACTIONS.petitionDelete,
    ]);
    expect(await auditActions('term', term.id)).toEqual([AUDIT_ACTIONS.termCreate, AUDIT_ACTIONS.termUpdate, AUDIT_ACTIONS.termDelete]);
    expect(await auditActions('ban', '700001')).toEqual([AUDIT_ACTIONS.ban, AUDIT_ACTIONS.unban]);
    expect(await auditActions('petition', moderatedId)).toEqual([
      AUDIT_ACTIONS.moderationHide,
      AUDIT_ACTIONS.moderationKeep,
      AUDIT_ACTIONS.moderationReject,
      AUDIT_ACTIONS.moderationRestore,
    ]);
    expect(await auditActions('rejection_reason', 'calls_reason')).toEqual([AUDIT_ACTIONS.rejectionReasonCreate, AUDIT_ACTIONS.rejectionReasonDelete]);
    expect(await auditActions('invalidation', invalidation.id)).toEqual([AUDIT_ACTIONS.invalidationRequest, AUDIT_ACTIONS.invalidationCancel, AUDIT_ACTIONS.restoreRequest]);
  });

  it('on the web, performs the action at once and gives the screen the API answer', async () => {
    const { id: petitionId } = await seedPetition(stack.context);
    const done = await directWrites(client).perform({ kind: 'petition.setStatus', petitionId, baseVersion: 1, status: 'closed' });
    expect(isQueued(done)).toBe(false);
    expect(done).toMatchObject({ id: petitionId, status: 'closed', version: 2 });
  });

  it('in the console, sends the same action with the row’s Idempotency-Key: sent twice, applied once', async () => {
    const { id: petitionId } = await seedPetition(stack.context);
    const action = { kind: 'petition.setStatus', petitionId, baseVersion: 1, status: 'closed' } as const;
    const first = await performStaffAction(client, action, 'calls-test-key-1');
    const replay = await performStaffAction(client, action, 'calls-test-key-1');
    expect(replay).toEqual(first);
    expect(await auditActions('petition', petitionId)).toEqual([AUDIT_ACTIONS.petitionStatus]);
  });

  it('writes only audit actions the staff screens have a label for', async () => {
    const rows = await stack.context.db.selectFrom('audit_log').select('action').distinct().execute();
    expect(rows.length).toBeGreaterThanOrEqual(13);
    expect(rows.map((row) => row.action).filter((action) => !isAuditAction(action))).toEqual([]);
  });
});
