/** The console core against the real backend over real HTTP: conflicts, 401 mid-sync, backend down and up. */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleCore, type ConsoleCoreWithIdle } from '../../src-main/node/console-core.ts';
import type { StaffActionInput } from '../../src-shared/console/staff-actions.ts';
import { StaffActionSchema } from '../../src-shared/console/staff-actions.ts';
import { auditCount, seedPetition } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { switchableForwarder } from '../support/switchable-forwarder.ts';
import { consoleSignIn, RecordingEvents, TestAuth, tempDir, type ConsoleSession } from './support.ts';

let stack: Stack;
let minister: ConsoleSession;
let primeMinister: ConsoleSession;
let admin: ConsoleSession;
const cores: ConsoleCoreWithIdle[] = [];

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  minister = await consoleSignIn(stack, 'Cabinet Minister');
  primeMinister = await consoleSignIn(stack, 'Prime Minister');
  admin = await consoleSignIn(stack, 'System Administrator');
});
afterAll(async () => {
  for (const core of cores) await core.close();
  await stack.close();
});

function openCore(auth: TestAuth, apiBaseUrl = stack.baseUrl, fetchImpl?: typeof fetch, sendTimeoutMs?: number) {
  const events = new RecordingEvents();
  const core = createConsoleCore({ dataDir: tempDir('console-core-'), apiBaseUrl, auth, events, fetch: fetchImpl, sendTimeoutMs });
  cores.push(core);
  return { core, events };
}

const respond = (petitionId: number, text: string, baseVersion = 1): StaffActionInput => ({
  kind: 'response.save',
  petitionId,
  baseVersion,
  body: { response_text: text, added_by_role: 'Chancellor of the Exchequer' },
});

async function enqueue(core: ConsoleCoreWithIdle, actions: StaffActionInput[]) {
  return core.handlers['outbox:enqueue']({ actions: actions.map((a) => StaffActionSchema.parse(a)), batch: false });
}

async function list(core: ConsoleCoreWithIdle) {
  return core.handlers['outbox:list']({ limit: 10_000 });
}

describe('two consoles answer the same petition', () => {
  it('applies the first and keeps the second as a conflict carrying the winner’s text', async () => {
    const petition = await seedPetition(stack.context, { signatures: 12 });
    const a = openCore(new TestAuth(minister));
    const b = openCore(new TestAuth(primeMinister));
    // Both answered offline, against the version they had read.
    await enqueue(a.core, [respond(petition.id, 'The Government agrees and will act this year.')]);
    await enqueue(b.core, [respond(petition.id, 'The Government disagrees.')]);

    a.core.start();
    await a.core.whenIdle();
    b.core.start();
    await b.core.whenIdle();

    const [applied] = (await list(a.core)).entries;
    const [conflict] = (await list(b.core)).entries;
    expect(applied?.state).toBe('applied');
    expect(conflict?.state).toBe('conflict');
    expect(conflict?.lastStatus).toBe(412);
    expect(conflict?.serverPetition?.governmentResponse).toBe('The Government agrees and will act this year.');
    expect(conflict?.serverPetition?.governmentResponseMeta?.addedBy).toBe('Morgan Minister');
    expect((await list(b.core)).summary).toEqual({ queued: 0, sending: 0, attention: 1 });
    expect(await auditCount(stack, { action: 'government_response.add', targetId: petition.id })).toBe(1);
    expect(b.events.events.at(-1)).toEqual({ event: 'outbox:changed', payload: { queued: 0, sending: 0, attention: 1 } });

    // The person resolves it: a new action on the server's version, with a new key.
    const serverVersion = conflict?.serverPetition?.version ?? 0;
    const { entries } = await b.core.handlers['outbox:resubmit']({
      id: conflict?.id ?? '',
      action: StaffActionSchema.parse(respond(petition.id, 'Amended: the Government disagrees.', serverVersion)),
    });
    expect(entries[0]?.supersedesId).toBe(conflict?.id);
    await b.core.whenIdle();
    const after = (await list(b.core)).entries;
    expect(after.map((e) => e.state)).toEqual(['cancelled', 'applied']);
    expect(await auditCount(stack, { action: 'government_response.edit', targetId: petition.id })).toBe(1);
  });
});

describe('a 401 in the middle of a sync', () => {
  it('pauses the queue, reports the token, and resumes after sign-in with nothing lost or doubled', async () => {
    const petitions = await Promise.all(Array.from({ length: 30 }, () => seedPetition(stack.context, { signatures: 12 })));
    const session = await consoleSignIn(stack, 'Cabinet Minister');
    const auth = new TestAuth(session);
    let calls = 0;
    const statuses: number[] = [];
    // The session is signed out on the server after the fifth call, as an expiry would.
    const signingOutFetch: typeof fetch = async (input, init) => {
      calls += 1;
      if (calls === 6) {
        const out = await fetch(`${stack.baseUrl}/api/auth/roblox/logout/${session.userId}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${session.token}`, 'x-petitions-csrf': '1' },
        });
        expect(out.status).toBe(200);
      }
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    const { core } = openCore(auth, stack.baseUrl, signingOutFetch);
    await enqueue(core, petitions.map((p, i) => respond(p.id, `Answer number ${i}.`)));
    core.start();
    await core.whenIdle();

    const states = (await list(core)).entries.map((e) => e.state);
    expect(states.filter((s) => s === 'applied').length).toBeGreaterThanOrEqual(5);
    expect(states.filter((s) => s === 'blocked_auth').length).toBeGreaterThanOrEqual(1);
    expect(states.every((s) => s === 'applied' || s === 'blocked_auth' || s === 'pending')).toBe(true);
    // Paused: after the first 401 nothing more goes out with that token; only calls already on their way got one.
    const unauthorized = statuses.filter((s) => s === 401).length;
    expect(unauthorized).toBeGreaterThanOrEqual(1);
    expect(unauthorized).toBeLessThanOrEqual(4);
    expect(statuses.length).toBeLessThan(petitions.length);
    expect(auth.unauthorized).toEqual([session.token]);

    auth.set(await consoleSignIn(stack, 'Cabinet Minister'));
    await core.whenIdle();
    const final = (await list(core)).entries;
    expect(final.map((e) => e.state)).toEqual(petitions.map(() => 'applied'));
    for (const p of petitions) expect(await auditCount(stack, { action: 'government_response.add', targetId: p.id })).toBe(1);
  });
});

describe('backend down, then up', () => {
  it('keeps actions queued while down, sends nothing, and applies them as soon as the backend answers', async () => {
    const petitions = await Promise.all(Array.from({ length: 5 }, () => seedPetition(stack.context, { signatures: 25 })));
    const forwarder = await switchableForwarder(Number(new URL(stack.baseUrl).port), { up: false });
    const { core } = openCore(new TestAuth(admin), forwarder.url);
    // Read while online: the page and a queue are stored with when they were fetched.
    await forwarder.up();
    const first = petitions[1]?.id ?? 0;
    const live = await core.handlers['data:read']({ path: `/api/petitions/${first}` });
    expect(live).toMatchObject({ fromCache: false, data: { id: first, status: 'open', version: 1 } });
    const queue = await core.handlers['data:read']({ path: '/api/petitions?status=awaiting_debate' });
    expect(queue.fromCache).toBe(false);
    await forwarder.down();

    await enqueue(core, petitions.map((p) => ({ kind: 'petition.setStatus', petitionId: p.id, baseVersion: 1, status: 'closed' }) as StaffActionInput));
    // Offline: the stored copies, with their age, showing what was queued.
    const cached = await core.handlers['data:read']({ path: `/api/petitions/${first}` });
    expect(cached).toMatchObject({ fromCache: true, fetchedAt: live.fetchedAt, data: { id: first, status: 'closed' } });
    const cachedQueue = await core.handlers['data:read']({ path: '/api/petitions?status=awaiting_debate' });
    expect(cachedQueue.fromCache).toBe(true);
    const listed = (cachedQueue.data as { items: { id: number; status: string }[] }).items.find((p) => p.id === first);
    expect(listed?.status).toBe('closed');
    // The reads found the backend away: the console sends nothing while it is (it probes instead).
    expect(core.connectivity().online).toBe(false);
    core.start();
    await core.whenIdle();
    const waiting = (await list(core)).entries;
    expect(waiting.map((e) => e.state)).toEqual(petitions.map(() => 'pending'));
    expect(waiting.map((e) => e.attempts)).toEqual(petitions.map(() => 0));

    // Offline reads answer from the cache only for pages read before.
    await expect(core.handlers['data:read']({ path: `/api/petitions/${petitions[0]?.id}` })).rejects.toThrow(/not been read on this computer/);

    // Back: the probe notices on its own (nobody tells the console) and everything goes.
    await forwarder.up();
    await expect.poll(async () => (await list(core)).entries.map((e) => e.state), { timeout: 15_000, interval: 100 }).toEqual(petitions.map(() => 'applied'));
    for (const p of petitions) {
      const row = await stack.context.db.selectFrom('petitions').select(['status', 'version']).where('id', '=', p.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'closed', version: 2 });
    }
    expect(core.connectivity().online).toBe(true);
    await forwarder.down();
  });
});

describe('a bulk status override', () => {
  it('goes in bulk calls, each row getting its own petition’s answer', async () => {
    const petitions = await Promise.all(Array.from({ length: 40 }, () => seedPetition(stack.context, { signatures: 3 })));
    const stale = petitions[7]?.id ?? 0;
    await stack.context.db.updateTable('petitions').set({ version: 9 }).where('id', '=', stale).execute();
    const calls: string[] = [];
    const countingFetch: typeof fetch = async (input, init) => {
      calls.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
      return fetch(input, init);
    };
    const { core } = openCore(new TestAuth(admin), stack.baseUrl, countingFetch);
    const actions = [...petitions.map((p) => p.id), 99_999_999].map((id) =>
      StaffActionSchema.parse({ kind: 'petition.setStatus', petitionId: id, baseVersion: 1, status: 'closed' }),
    );
    const { entries } = await core.handlers['outbox:enqueue']({ actions, batch: true });
    expect(new Set(entries.map((e) => e.batchId)).size).toBe(1);
    core.start();
    await core.whenIdle();

    expect(calls.every((call) => call === 'POST /api/petitions/bulk-status')).toBe(true);
    expect(calls.length).toBeLessThanOrEqual(3);
    const after = (await list(core)).entries.filter((e) => e.batchId === entries[0]?.batchId);
    const stateOf = (id: number) => after.find((e) => e.action.kind === 'petition.setStatus' && e.action.petitionId === id);
    expect(stateOf(stale)).toMatchObject({ state: 'conflict', lastStatus: 412, serverPetition: { id: stale, version: 9 } });
    expect(stateOf(99_999_999)).toMatchObject({ state: 'rejected', lastStatus: 404, lastError: 'Petition not found' });
    expect(after.filter((e) => e.state === 'applied')).toHaveLength(39);
    const closed = await stack.context.db.selectFrom('petitions').select('id').where('status', '=', 'closed').where('id', 'in', petitions.map((p) => p.id)).execute();
    expect(closed).toHaveLength(39);
    expect(await auditCount(stack, { action: 'petition.set_status' })).toBeGreaterThanOrEqual(39);
  });
});

describe('another staff member at the same console', () => {
  it('never sends one person’s queued actions with another’s token; they wait, or are discarded on request', async () => {
    const petition = await seedPetition(stack.context, { signatures: 12 });
    const auth = new TestAuth(minister);
    const { core } = openCore(auth);
    await enqueue(core, [respond(petition.id, 'Queued by the minister.')]);
    auth.set(primeMinister);
    core.start();
    await core.whenIdle();
    expect((await list(core)).entries.map((e) => [e.state, e.actorUserId])).toEqual([['pending', minister.userId]]);
    expect(core.queuedForOthers(primeMinister.userId)).toEqual([{ actorUserId: minister.userId, count: 1 }]);
    expect(await auditCount(stack, { action: 'government_response.add', targetId: petition.id })).toBe(0);

    auth.set(minister);
    await core.whenIdle();
    expect((await list(core)).entries.map((e) => e.state)).toEqual(['applied']);
    expect(await auditCount(stack, { action: 'government_response.add', targetId: petition.id })).toBe(1);

    const other = await seedPetition(stack.context, { signatures: 12 });
    auth.set(null);
    await expect(enqueue(core, [respond(other.id, 'Never sent.')])).rejects.toThrow(/Sign in/);
    auth.set(primeMinister);
    await enqueue(core, [respond(other.id, 'Queued by the Prime Minister.')]);
    auth.set(null);
    expect(core.discardQueuedFor(primeMinister.userId)).toBe(1);
    auth.set(primeMinister);
    await core.whenIdle();
    expect((await list(core)).entries.map((e) => e.state)).toEqual(['applied', 'cancelled']);
    expect(await auditCount(stack, { action: 'government_response.add', targetId: other.id })).toBe(0);
  });
});

describe('maintenance mode', () => {
  it('waits out the server’s Retry-After, and goes at once when the console is told it is back', async () => {
    const petition = await seedPetition(stack.context, { signatures: 12 });
    const { core } = openCore(new TestAuth(minister));
    await stack.context.siteSettings.setMaintenance(true);
    try {
      await enqueue(core, [respond(petition.id, 'After the maintenance.')]);
      core.start();
      await core.whenIdle();
      const [waiting] = (await list(core)).entries;
      expect(waiting).toMatchObject({ state: 'retry_wait', lastStatus: 503, lastError: 'Site Under Maintenance' });
      expect(Date.parse(waiting?.nextAttemptAt ?? '') - Date.parse(waiting?.updatedAt ?? '')).toBeGreaterThan(115_000);
    } finally {
      await stack.context.siteSettings.setMaintenance(false);
    }
    core.setOnline(true);
    await core.whenIdle();
    expect((await list(core)).entries.map((e) => e.state)).toEqual(['applied']);
    expect(await auditCount(stack, { action: 'government_response.add', targetId: petition.id })).toBe(1);
  });
});

describe('a backend that accepts and never answers', () => {
  it('abandons the call after the timeout and keeps the row for a retry with the same key', async () => {
    const sockets = new Set<net.Socket>();
    const hung = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const { port } = hung.address() as net.AddressInfo;
    const { core } = openCore(new TestAuth(admin), `http://127.0.0.1:${port}`, undefined, 300);
    try {
      await enqueue(core, [{ kind: 'site.maintenance', maintenance: false }]);
      const started = Date.now();
      core.start();
      await core.whenIdle();
      expect(Date.now() - started).toBeGreaterThanOrEqual(290);
      const [row] = (await list(core)).entries;
      expect(row).toMatchObject({ state: 'retry_wait', attempts: 1, lastStatus: null, lastError: 'The server could not be reached' });
    } finally {
      for (const socket of sockets) socket.destroy();
      hung.close();
    }
  });
});
