/** The console's stores over a ConsoleApi double, and server-side renders of what each rank sees. */
import { beforeAll, describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { ConsoleApp } from '../../../src-renderer/console/ConsoleApp.tsx';
import { loadWorkspaceFrame } from '../../../src-renderer/console/lazyScreens.ts';
import { NOT_STAFF_TEXT } from '../../../src-renderer/console/queues.ts';
import { createConsoleStores } from '../../../src-renderer/console/state/stores.ts';
import { reactToTransitions } from '../../../src-renderer/console/actionOutcomes.ts';
import type { IpcChannel, IpcRequest, PresenceView } from '../../../src-shared/console/ipc-contract.ts';
import { ADMIN, CITIZEN, ConsoleDouble, LEADER, MINISTER, makePetition, sessionFor } from './console-double.ts';

// The workspace's navigation and filters are in the frame's chunk (lazyScreens.ts); a console has it a moment after start.
beforeAll(async () => {
  await loadWorkspaceFrame();
});

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ');

describe('data store', () => {
  it('reads a queue of 250 petitions through data:read, every page, with its age', async () => {
    const petitions = Array.from({ length: 250 }, (_, i) => makePetition({ id: i + 1, signatures: 10 + (i % 30) }));
    const api = new ConsoleDouble({ petitions });
    api.offline = true;
    const stores = createConsoleStores(api);
    await stores.data.getState().loadQueue('response');
    const queue = stores.data.getState().queues.response;
    expect(queue.status).toBe('ready');
    expect(queue.data).toHaveLength(250);
    expect(queue.fromCache).toBe(true);
    expect(queue.fetchedAt).toBe('2026-11-23T14:02:00Z');
    const reads = api.calls.filter((c) => c.channel === 'data:read').map((c) => (c.request as { path: string }).path);
    expect(reads).toHaveLength(3);
    expect(reads[0]).toContain('status=awaiting_response');
  });

  it('remembers the rows of the previous read, for petitions whose action is on its way', async () => {
    const api = new ConsoleDouble({ petitions: [makePetition({ id: 1 }), makePetition({ id: 2 })] });
    const stores = createConsoleStores(api);
    await stores.data.getState().loadQueue('response');
    // The cache already shows a queued answer to petition 2 as done, so the next read lacks it.
    api.petitions = [makePetition({ id: 1 })];
    await stores.data.getState().loadQueue('response');
    expect(stores.data.getState().queues.response.data?.map((p) => p.id)).toEqual([1]);
    expect(stores.data.getState().seen[2]?.id).toBe(2);
  });

  it('keeps the freshest version of a petition from its page or a queue row', async () => {
    const api = new ConsoleDouble({ petitions: [makePetition({ id: 7, version: 3 })] });
    const stores = createConsoleStores(api);
    await stores.data.getState().loadQueue('response');
    api.petitions = [makePetition({ id: 7, version: 5 })];
    await stores.data.getState().loadPetition(7);
    expect(stores.data.getState().petition(7)?.version).toBe(5);
  });
});

describe('outbox store', () => {
  it('queues actions valid under the contract, follows outbox:changed, and reports transitions once', async () => {
    const api = new ConsoleDouble({ petitions: [makePetition({ id: 1 })] });
    const stores = createConsoleStores(api);
    await stores.outbox.getState().refresh();
    const seen: string[] = [];
    stores.outbox.getState().onTransitions((changes) => seen.push(...changes.map((c) => `${c.from}->${c.entry.state}`)));
    const [queued] = await stores.outbox.getState().enqueue([
      { kind: 'response.save', petitionId: 1, baseVersion: 1, body: { petition_id: 1, response_text: 'We agree.', added_by_role: 'Home Secretary' } },
    ]);
    expect(queued?.state).toBe('pending');
    expect(stores.outbox.getState().summary.queued).toBe(1);
    api.settle(queued!.id, 'applied');
    await stores.outbox.getState().refresh();
    expect(seen).toEqual(['null->pending', 'pending->applied']);
    expect(stores.outbox.getState().summary).toEqual({ queued: 0, sending: 0, attention: 0 });
  });

  it('refuses an action the contract refuses (an empty response), with the main side message', async () => {
    const api = new ConsoleDouble();
    const stores = createConsoleStores(api);
    await expect(
      stores.outbox.getState().enqueue([
        { kind: 'response.save', petitionId: 1, baseVersion: 1, body: { response_text: ' ', added_by_role: 'Home Secretary' } },
      ]),
    ).rejects.toThrow(/government response/);
  });

  it('turns applied and attention transitions into toasts and a queue reload', async () => {
    const api = new ConsoleDouble({ petitions: [makePetition({ id: 1 })] });
    const stores = createConsoleStores(api, { session: sessionFor(MINISTER) });
    await stores.outbox.getState().refresh();
    const [a] = await stores.outbox.getState().enqueue([{ kind: 'response.remove', petitionId: 1, baseVersion: 1 }]);
    const reads = api.calls.length;
    reactToTransitions(stores, [{ entry: { ...a!, state: 'applied' }, from: 'sending' }]);
    reactToTransitions(stores, [{ entry: { ...a!, state: 'conflict', lastError: 'Changed by someone else' }, from: 'sending' }]);
    expect(stores.toasts.getState().toasts.map((t) => t.text)).toEqual([
      'Applied: response.remove #1',
      'Needs attention: response.remove #1 (Changed by someone else)',
    ]);
    expect(api.calls.slice(reads).some((c) => c.channel === 'data:read')).toBe(true);
  });

  it('asks the platform for a desktop notification when an action needs attention while the window is not focused', async () => {
    const api = new ConsoleDouble();
    const stores = createConsoleStores(api, { session: sessionFor(MINISTER) });
    const [a] = await stores.outbox.getState().enqueue([{ kind: 'response.remove', petitionId: 1, baseVersion: 1 }]);
    const conflict = { entry: { ...a!, state: 'conflict' as const, lastError: 'Changed by someone else' }, from: 'sending' as const };
    const saved = globalThis.document;
    try {
      globalThis.document = { hasFocus: () => true } as unknown as Document;
      reactToTransitions(stores, [conflict]);
      expect(api.calls.some((c) => c.channel === 'platform:notify')).toBe(false);
      globalThis.document = { hasFocus: () => false } as unknown as Document;
      reactToTransitions(stores, [conflict]);
      const notify = api.calls.filter((c) => c.channel === 'platform:notify');
      expect(notify).toEqual([
        {
          channel: 'platform:notify',
          request: { title: 'Petitions console: action needs attention', body: 'response.remove #1: Changed by someone else' },
        },
      ]);
    } finally {
      globalThis.document = saved;
    }
  });

  it('resubmits a conflict as a new row and discards the old one', async () => {
    const api = new ConsoleDouble();
    const stores = createConsoleStores(api);
    const [a] = await stores.outbox.getState().enqueue([{ kind: 'petition.setStatus', petitionId: 4, baseVersion: 1, status: 'closed' }]);
    api.settle(a!.id, 'conflict', { serverPetition: makePetition({ id: 4, version: 3 }) });
    await stores.outbox.getState().resubmit(a!.id, { kind: 'petition.setStatus', petitionId: 4, baseVersion: 3, status: 'closed' });
    const entries = stores.outbox.getState().entries;
    expect(entries.find((e) => e.id === a!.id)?.state).toBe('cancelled');
    expect(entries.find((e) => e.supersedesId === a!.id)?.action).toMatchObject({ baseVersion: 3 });
  });
});

/** presence:get answers with the view the main process had when asked, but only once `release` is called. */
class SlowPresenceDouble extends ConsoleDouble {
  release: () => void = () => undefined;
  private readonly held = new Promise<void>((resolve) => (this.release = resolve));
  override async invoke<C extends IpcChannel>(channel: C, request: IpcRequest<C>) {
    const answer = await super.invoke(channel, request);
    if (channel === 'presence:get') await this.held;
    return answer;
  }
}

describe('presence store', () => {
  const colleague = { userId: '2008', displayName: 'Pat Premier', role: 'Prime Minister', petitionId: 4, activity: 'viewing' as const, since: '2026-11-23T14:00:00Z', claimedUntil: null };
  const newer: PresenceView = { connected: true, unreachable: false, entries: [colleague], queues: null };

  it('keeps a view the event brought while presence:get was out, not the older reply', async () => {
    const api = new SlowPresenceDouble();
    api.presence = { connected: false, unreachable: false, entries: [], queues: null };
    const stores = createConsoleStores(api);
    const loading = stores.presence.getState().load();
    api.emit('presence:changed', newer);
    api.release();
    await loading;
    expect(stores.presence.getState().view).toEqual(newer);
  });

  it('takes the reply when no event came meanwhile', async () => {
    const api = new SlowPresenceDouble();
    api.presence = newer;
    const stores = createConsoleStores(api);
    const loading = stores.presence.getState().load();
    api.release();
    await loading;
    expect(stores.presence.getState().view).toEqual(newer);
  });
});

describe('what each account sees', () => {
  const render = (user: typeof MINISTER | null) => {
    const api = new ConsoleDouble({ user });
    const stores = createConsoleStores(api, { session: sessionFor(user), screen: { name: 'queue', kind: 'response' } });
    return text(renderToString(<ConsoleApp stores={stores} />));
  };

  it('turns a citizen away', () => {
    expect(render(CITIZEN)).toContain(NOT_STAFF_TEXT);
  });

  it('asks a signed-out user to sign in', () => {
    expect(render(null)).toContain('Sign in with ROBLOX');
  });

  it('gives rank 6 the response queue and no debate queue', () => {
    const page = render(MINISTER);
    expect(page).toContain('Awaiting government response');
    expect(page).not.toContain('Awaiting debate');
    expect(page).not.toContain('Bulk status override');
    expect(page).toContain('0 queued · 0 sending · 0 need attention');
    expect(page).toContain('Online');
  });

  it('gives rank 7 both queues and the administrator the administration screens', () => {
    expect(render(LEADER)).toContain('Awaiting debate');
    const admin = render(ADMIN);
    expect(admin).toContain('Bulk status override');
    expect(admin).toContain('Audit log');
  });
});
