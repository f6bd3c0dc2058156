/**
 * Made-at on every staff action the console's outbox can carry (docs/audit.md#made-at-and-applied-at):
 * each kind of the shared list (src-shared/console/staff-actions.ts) is performed through its one API
 * call (performStaffAction, as the outbox's sync engine sends it) with an X-Action-Made-At, over
 * HTTP against the real server, and every audit row that call wrote must carry that made-at beside
 * the time it was applied. The outbox's two bulk calls (several status overrides, several moderation
 * decisions) are checked the same way. A new kind fails to compile here until it has a case, and the
 * list of cases is compared with the schema's kinds at run time too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src-shared/api/client.ts';
import { performStaffAction, type StaffActionOf } from '../../src-shared/console/staff-action-calls.ts';
import { StaffActionSchema, type StaffActionKind } from '../../src-shared/console/staff-actions.ts';
import { signInAs } from '../server-auth/browser.ts';
import { sessionCookie } from '../server-auth/support.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';

let stack: Stack;
let client: ApiClient;
/** The server's clock, held still so the applied-at of every row is known exactly. */
let applied: Date;

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  const { jar } = await signInAs(stack, 'System Administrator');
  const cookie = `${stack.context.cookie.name}=${sessionCookie(stack, jar) ?? ''}`;
  client = createApiClient({ baseUrl: stack.baseUrl, headers: () => ({ cookie }) });
  applied = new Date(Math.floor(Date.now() / 1000) * 1000);
  stack.setNow(applied);
});
afterAll(async () => {
  await stack?.close();
});

const hidden = async () => {
  const { id } = await seedPetition(stack.context, { termId: null });
  const petition = await client.moderatePetition(id, { decision: 'hide', reason: 'Checking a claim' }, { ifMatch: 1 });
  return { petitionId: id, baseVersion: petition.version };
};
const visible = async (seed: Parameters<typeof seedPetition>[1] = {}) => ({
  petitionId: (await seedPetition(stack.context, { termId: null, ...seed })).id,
  baseVersion: 1,
});
const queuedInvalidation = async () => {
  const { id } = await seedPetition(stack.context, { termId: null, signatures: 2 });
  return client.requestInvalidation({ criteria: { petitionId: id }, reason: 'Alternate accounts', previewedMatching: 2 });
};

/** Sets up what the action needs and gives the action; `undo` puts back what would disturb later cases. */
type Case<K extends StaffActionKind> = () => Promise<{ action: StaffActionOf<K>; undo?: () => Promise<unknown> }>;

const CASES: { [K in StaffActionKind]: Case<K> } = {
  'response.save': async () => ({
    action: {
      kind: 'response.save',
      ...(await visible({ signatures: 12, status: 'awaiting_government_response' })),
      body: { response_text: 'The Government will act.', added_by_role: 'Chancellor of the Exchequer' },
    },
  }),
  'response.remove': async () => ({ action: { kind: 'response.remove', ...(await visible({ governmentResponse: 'An answer.', status: 'government_response' })) } }),
  'debate.save': async () => ({ action: { kind: 'debate.save', ...(await visible({ signatures: 20 })), body: { status: 'scheduled', date: '2031-03-01' } } }),
  'debate.remove': async () => ({
    action: { kind: 'debate.remove', ...(await visible({ debateInfo: { status: 'scheduled', date: '2031-03-01', transcript_url: null, video_url: null } })) },
  }),
  'petition.setStatus': async () => ({ action: { kind: 'petition.setStatus', ...(await visible()), status: 'closed' } }),
  'petition.assignTerm': async () => ({ action: { kind: 'petition.assignTerm', ...(await visible()), termId: (await seedTerm(stack.context, { name: 'Assigned' })).id } }),
  'petition.delete': async () => ({ action: { kind: 'petition.delete', ...(await visible()) } }),
  'term.create': async () => ({ action: { kind: 'term.create', body: { name: 'Made-at term', startDate: '2040-01-01', endDate: '2040-12-31' } } }),
  // Completing a term closes its open petitions: a second audit row of the same action.
  'term.update': async () => {
    const term = await seedTerm(stack.context, { name: 'Ending term' });
    await seedPetition(stack.context, { termId: term.id });
    return { action: { kind: 'term.update', termId: term.id, body: { status: 'completed' } } };
  },
  'term.delete': async () => ({ action: { kind: 'term.delete', termId: (await seedTerm(stack.context, { name: 'Doomed', startDate: '2041-01-01', endDate: '2041-12-31' })).id } }),
  'ban.add': async () => ({ action: { kind: 'ban.add', userId: '700101', body: { reason: 'Spam' } } }),
  'ban.remove': async () => {
    await client.banUser('700102', 'Spam');
    return { action: { kind: 'ban.remove', userId: '700102' } };
  },
  'site.maintenance': async () => ({ action: { kind: 'site.maintenance', maintenance: true }, undo: () => client.setMaintenance(false) }),
  'moderation.keep': async () => ({ action: { kind: 'moderation.keep', ...(await hidden()) } }),
  'moderation.hide': async () => ({ action: { kind: 'moderation.hide', ...(await visible()), reason: 'Checking a claim' } }),
  'moderation.reject': async () => ({ action: { kind: 'moderation.reject', ...(await visible()), reasonCode: 'unclear' } }),
  'moderation.restore': async () => ({ action: { kind: 'moderation.restore', ...(await hidden()) } }),
  'rejectionReason.save': async () => ({
    action: { kind: 'rejectionReason.save', code: 'made_at_reason', body: { title: 'Made-at', publicText: 'A reason for the made-at test.', hidden: false } },
  }),
  'rejectionReason.delete': async () => {
    await client.saveRejectionReason('made_at_doomed', { title: 'Doomed', publicText: 'A reason to delete.', hidden: false });
    return { action: { kind: 'rejectionReason.delete', code: 'made_at_doomed' } };
  },
  'signatures.invalidate': async () => ({
    action: { kind: 'signatures.invalidate', criteria: { petitionId: (await visible({ signatures: 2 })).petitionId }, reason: 'Alternate accounts', previewedMatching: 2 },
  }),
  'signatures.cancel': async () => ({ action: { kind: 'signatures.cancel', jobId: (await queuedInvalidation()).id } }),
  'signatures.restore': async () => {
    const job = await queuedInvalidation();
    await client.cancelInvalidation(job.id);
    return { action: { kind: 'signatures.restore', jobId: job.id, reason: 'Nothing moved' } };
  },
};

async function lastAuditId(): Promise<number> {
  const row = await stack.context.db.selectFrom('audit_log').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The audit rows written since `afterId`: what one call wrote (no background work runs in this server). */
async function auditSince(afterId: number) {
  return stack.context.db.selectFrom('audit_log').select(['action', 'at', 'made_at']).where('id', '>', afterId).orderBy('id').execute();
}

/** A distinct made-at per call, minutes before the clock, so a row carrying another call's time shows. */
let calls = 0;
const nextMadeAt = () => new Date(applied.getTime() - ++calls * 60_000).toISOString();

describe('X-Action-Made-At on every staff action kind', () => {
  it('is recorded, beside the applied-at, on every audit row of every kind and of both bulk calls', async () => {
    const kinds = StaffActionSchema.options.map((option) => option.shape.kind.value);
    expect(Object.keys(CASES).sort()).toEqual([...kinds].sort());

    const seen: Record<string, { actions: string[]; madeAt: string[]; at: string[] }> = {};
    const expected: typeof seen = {};
    async function check(label: string, perform: (madeAt: string) => Promise<unknown>) {
      const madeAt = nextMadeAt();
      const before = await lastAuditId();
      await perform(madeAt);
      const rows = await auditSince(before);
      seen[label] = { actions: rows.map((row) => row.action), madeAt: rows.map((row) => row.made_at ?? 'null'), at: rows.map((row) => row.at) };
      expected[label] = { actions: seen[label].actions, madeAt: rows.map(() => madeAt), at: rows.map(() => applied.toISOString()) };
      // A call that wrote nothing would pass the comparison below vacuously.
      if (rows.length === 0) seen[label].actions.push('(no audit row)');
    }

    for (const kind of kinds) {
      const { action, undo } = await (CASES[kind] as Case<typeof kind>)();
      await check(kind, (madeAt) => performStaffAction(client, action, `made-at-${kind}`, madeAt));
      await undo?.();
    }
    const [first, second] = [await visible(), await visible()];
    await check('bulk status', (madeAt) =>
      client.setPetitionStatuses(
        { items: [first, second].map(({ petitionId }) => ({ petitionId, status: 'closed' as const, expectedVersion: 1, idempotencyKey: `made-at-bulk-${petitionId}` })) },
        { madeAt },
      ),
    );
    const [third, fourth] = [await visible(), await hidden()];
    await check('bulk moderation', (madeAt) =>
      client.moderatePetitions(
        {
          items: [
            { petitionId: third.petitionId, action: { decision: 'reject', reasonCode: 'unclear' }, expectedVersion: third.baseVersion, idempotencyKey: 'made-at-bulk-reject' },
            { petitionId: fourth.petitionId, action: { decision: 'restore' }, expectedVersion: fourth.baseVersion, idempotencyKey: 'made-at-bulk-restore' },
          ],
        },
        { madeAt },
      ),
    );

    expect(seen).toEqual(expected);
    expect(seen['term.update']?.actions).toEqual(['term.update', 'term.close_petitions']);
    expect(seen['bulk moderation']?.actions).toEqual(['moderation.reject', 'moderation.restore']);
  });
});
