/**
 * The console core and moderation against the real backend over real HTTP
 * (docs/moderation.md#in-the-staff-console): a batch of decisions goes as bulk-moderation calls with
 * a result per row (a stale version and a refusal by the petition's state are conflicts carrying the
 * petition, an unknown reason is rejected); a single decision goes alone to its own call; queued
 * decisions are laid over cached cases and the queue when offline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlayActions, petitionIdsIn } from '../../src-main/node/cache/read-cache.ts';
import { createConsoleCore, type ConsoleCoreWithIdle } from '../../src-main/node/console-core.ts';
import { applyToPetition } from '../../src-main/node/outbox/action-effects.ts';
import { StaffActionSchema, type StaffActionInput } from '../../src-shared/console/staff-actions.ts';
import type { ModerationCase, ModerationQueue } from '../../src-shared/domain/moderation-schemas.ts';
import { PetitionSchema, type Petition } from '../../src-shared/domain/schemas.ts';
import { auditCount, seedPetition } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { switchableForwarder } from '../support/switchable-forwarder.ts';
import { consoleSignIn, RecordingEvents, TestAuth, tempDir, type ConsoleSession } from './support.ts';

let stack: Stack;
let leader: ConsoleSession;
const cores: ConsoleCoreWithIdle[] = [];

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  leader = await consoleSignIn(stack, 'Leader of the House of Commons');
});
afterAll(async () => {
  for (const core of cores) await core.close();
  await stack.close();
});

function openCore(apiBaseUrl = stack.baseUrl, fetchImpl?: typeof fetch) {
  const core = createConsoleCore({ dataDir: tempDir('console-moderation-'), apiBaseUrl, auth: new TestAuth(leader), events: new RecordingEvents(), fetch: fetchImpl });
  cores.push(core);
  return core;
}

const parse = (actions: StaffActionInput[]) => actions.map((a) => StaffActionSchema.parse(a));

async function entriesOf(core: ConsoleCoreWithIdle) {
  return (await core.handlers['outbox:list']({ limit: 10_000 })).entries;
}

async function moderationState(id: number): Promise<string | null> {
  const row = await stack.context.db.selectFrom('petitions').select('moderation_state').where('id', '=', id).executeTakeFirstOrThrow();
  return row.moderation_state;
}

describe('a bulk moderation from the console', () => {
  it('goes in bulk-moderation calls, each row getting its own petition’s answer', async () => {
    const petitions = await Promise.all(Array.from({ length: 6 }, () => seedPetition(stack.context, { signatures: 2 })));
    const [fresh1, fresh2, stale, rejected, unknownReason] = petitions as [typeof petitions[0], typeof petitions[0], typeof petitions[0], typeof petitions[0], typeof petitions[0]];
    await stack.context.db.updateTable('petitions').set({ version: 7 }).where('id', '=', stale.id).execute();
    await stack.context.db
      .updateTable('petitions')
      .set({ moderation_state: 'rejected', moderation_reason_code: 'advertising', moderated_at: new Date().toISOString(), version: 2 })
      .where('id', '=', rejected.id)
      .execute();
    const calls: string[] = [];
    const core = openCore(stack.baseUrl, async (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    });

    const hide = (id: number, baseVersion = 1): StaffActionInput => ({ kind: 'moderation.hide', petitionId: id, baseVersion, reason: 'Held for review.' });
    const { entries } = await core.handlers['outbox:enqueue']({
      actions: parse([hide(fresh1.id), hide(fresh2.id), hide(stale.id), hide(rejected.id, 2), { kind: 'moderation.reject', petitionId: unknownReason.id, baseVersion: 1, reasonCode: 'no_such_reason' }]),
      batch: true,
    });
    expect(new Set(entries.map((e) => e.batchId)).size).toBe(1);
    core.start();
    await core.whenIdle();

    // One call for the batch (a hide and a reject may share it: each item is its own single call).
    expect(calls).toEqual(['POST /api/petitions/bulk-moderation']);
    const after = await entriesOf(core);
    const of = (id: number) => after.find((e) => 'petitionId' in e.action && e.action.petitionId === id);
    expect(of(fresh1.id)).toMatchObject({ state: 'applied', lastStatus: 200 });
    expect(of(fresh2.id)).toMatchObject({ state: 'applied', lastStatus: 200 });
    expect(of(stale.id)).toMatchObject({ state: 'conflict', lastStatus: 412, serverPetition: { id: stale.id, version: 7 } });
    // Hiding a rejected petition is refused by its state: a conflict a person resolves, with the petition.
    expect(of(rejected.id)).toMatchObject({ state: 'conflict', lastStatus: 409, lastError: 'This petition was rejected: restore it before hiding it' });
    expect(of(rejected.id)?.serverPetition?.moderation).toMatchObject({ state: 'rejected', reasonCode: 'advertising' });
    expect(of(unknownReason.id)).toMatchObject({ state: 'rejected', lastStatus: 400 });
    expect([await moderationState(fresh1.id), await moderationState(fresh2.id), await moderationState(stale.id)]).toEqual(['hidden', 'hidden', null]);
    expect(await auditCount(stack, { action: 'moderation.hide', targetId: fresh1.id })).toBe(1);
    expect(await auditCount(stack, { action: 'moderation.hide', targetId: stale.id })).toBe(0);
  });
});

describe('a single decision', () => {
  it('goes alone to the petition’s own moderation call, with the version it was based on', async () => {
    const petition = await seedPetition(stack.context, { signatures: 2 });
    await stack.context.db.updateTable('petitions').set({ moderation_state: 'hidden', moderated_at: new Date().toISOString(), version: 3 }).where('id', '=', petition.id).execute();
    const calls: string[] = [];
    const core = openCore(stack.baseUrl, async (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname} If-Match: ${new Headers(init?.headers).get('if-match')}`);
      return fetch(input, init);
    });
    await core.handlers['outbox:enqueue']({ actions: parse([{ kind: 'moderation.restore', petitionId: petition.id, baseVersion: 3 }]), batch: false });
    core.start();
    await core.whenIdle();
    expect(calls).toEqual([`POST /api/petitions/${petition.id}/moderation If-Match: "3"`]);
    const [entry] = await entriesOf(core);
    expect(entry).toMatchObject({ state: 'applied' });
    expect(await moderationState(petition.id)).toBeNull();

    expect(await auditCount(stack, { action: 'moderation.restore', targetId: petition.id })).toBe(1);
  });
});

describe('offline', () => {
  it('answers the queue and a case from the cache with the queued decisions laid over them', async () => {
    const petition = await seedPetition(stack.context, { title: 'Offline moderation of a reported petition', signatures: 2 });
    await stack.context.db.updateTable('petitions').set({ moderation_state: 'hidden', moderated_at: new Date().toISOString() }).where('id', '=', petition.id).execute();
    const forwarder = await switchableForwarder(Number(new URL(stack.baseUrl).port));
    try {
      const core = openCore(forwarder.url);
      const queuePath = '/api/moderation/queue?view=review&page=1&pageSize=50';
      const casePath = `/api/moderation/petitions/${petition.id}`;
      const online = await core.handlers['data:read']({ path: queuePath });
      expect((online.data as ModerationQueue).items.some((c) => c.petition.id === petition.id)).toBe(true);
      await core.handlers['data:read']({ path: casePath });

      await forwarder.down();
      await core.handlers['outbox:enqueue']({ actions: parse([{ kind: 'moderation.reject', petitionId: petition.id, baseVersion: 1, reasonCode: 'unclear' }]), batch: false });
      const queue = await core.handlers['data:read']({ path: queuePath });
      const one = await core.handlers['data:read']({ path: casePath });
      expect(queue.fromCache).toBe(true);
      const listed = (queue.data as ModerationQueue).items.find((c) => c.petition.id === petition.id);
      expect(listed?.petition.moderation).toMatchObject({ state: 'rejected', reasonCode: 'unclear', note: null });
      expect((one.data as ModerationCase).petition.moderation).toMatchObject({ state: 'rejected', reasonCode: 'unclear' });
      // Still a valid petition (a real time), so later overlays and the server's answer apply to it.
      expect(PetitionSchema.safeParse((one.data as ModerationCase).petition).success).toBe(true);
      // The rest of the case is untouched.
      expect((one.data as ModerationCase).creator).toEqual((listed as ModerationCase).creator);
    } finally {
      await forwarder.down();
    }
  });
});

describe('a queued decision’s local effect', () => {
  const visible = (): Petition => ({
    id: 5, title: 'T', description: 'D', creator: 'C', creator_id: null, tags: [], category: 'General', termId: null,
    status: 'open', signatures: 1, created: '2026-11-01T00:00:00.000Z', closureReason: null, closedAt: null,
    governmentResponse: null, governmentResponseMeta: null, debateInfo: null, debateInfoMeta: null, version: 4,
  });
  const at = '2026-11-24T12:00:00.000Z';

  it('follows the shared decision rule: changes nothing the server would refuse or leave as it is', () => {
    const hidden = applyToPetition(visible(), StaffActionSchema.parse({ kind: 'moderation.hide', petitionId: 5, baseVersion: 4, reason: 'Review.' }), at)!;
    expect(hidden.moderation).toEqual({ state: 'hidden', note: 'Review.', reasonCode: null, at });
    const rejected = applyToPetition(hidden, StaffActionSchema.parse({ kind: 'moderation.reject', petitionId: 5, baseVersion: 4, reasonCode: 'spam_ads' }), at)!;
    expect(rejected.moderation).toMatchObject({ state: 'rejected', reasonCode: 'spam_ads' });
    // Keeping or hiding a rejected petition is refused: nothing changes.
    expect(applyToPetition(rejected, StaffActionSchema.parse({ kind: 'moderation.keep', petitionId: 5, baseVersion: 4 }), at)).toEqual(rejected);
    expect(applyToPetition(rejected, StaffActionSchema.parse({ kind: 'moderation.hide', petitionId: 5, baseVersion: 4, reason: 'Again.' }), at)).toEqual(rejected);
    const restored = applyToPetition(rejected, StaffActionSchema.parse({ kind: 'moderation.restore', petitionId: 5, baseVersion: 4 }), at)!;
    expect('moderation' in restored).toBe(false);
  });

  it('reaches petitions wrapped in cases and lists of cases, and drops cases of deleted petitions', () => {
    const wrap = (petition: Petition) => ({ petition, openReports: 2, creator: { name: 'c' } });
    const other = { ...visible(), id: 6 };
    const list = { items: [wrap(visible()), wrap(other)], total: 2 };
    const actions = [
      StaffActionSchema.parse({ kind: 'moderation.hide', petitionId: 5, baseVersion: 4, reason: 'Review.' }),
      StaffActionSchema.parse({ kind: 'petition.delete', petitionId: 6, baseVersion: 1 }),
    ];
    expect(petitionIdsIn(list)).toEqual([5, 6]);
    expect(petitionIdsIn(wrap(visible()))).toEqual([5]);
    const overlaid = overlayActions(list, actions, at) as { items: ReturnType<typeof wrap>[]; total: number };
    expect(overlaid.items).toHaveLength(1);
    expect(overlaid.items[0]).toMatchObject({ openReports: 2, creator: { name: 'c' }, petition: { id: 5, moderation: { state: 'hidden', at } } });
    expect((overlayActions(wrap(visible()), actions, at) as ReturnType<typeof wrap>).petition.moderation?.state).toBe('hidden');
    expect(overlayActions({ petition: 'not a petition' }, actions, at)).toEqual({ petition: 'not a petition' });
  });
});
