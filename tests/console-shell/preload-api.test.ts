import { describe, expect, it } from 'vitest';
import { buildConsoleApi, type Invoke, type Subscribe } from '../../src-preload/api.ts';
import type { IpcChannel, IpcEvent } from '../../src-shared/console/ipc-contract.ts';

function transport() {
  const invoked: { channel: IpcChannel; request: unknown }[] = [];
  const listeners = new Map<IpcEvent, Set<(payload: unknown) => void>>();
  const invoke: Invoke = async (channel, request) => {
    invoked.push({ channel, request });
    return { ok: true, value: { echoed: channel } };
  };
  const subscribe: Subscribe = (event, listener) => {
    // Electron hands listeners (event, payload); the preload must pass the payload only.
    const set = listeners.get(event) ?? new Set();
    listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  };
  const fire = (event: IpcEvent, payload: unknown) => {
    for (const listener of listeners.get(event) ?? []) listener(payload);
  };
  return { invoke, subscribe, invoked, fire, listeners };
}

describe('the preload API factory', () => {
  it('exposes exactly invoke and on, frozen', () => {
    const api = buildConsoleApi(transport().invoke, transport().subscribe);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(api)).toBe(true);
    expect(() => {
      (api as unknown as Record<string, unknown>).send = () => undefined;
    }).toThrow();
  });

  it('forwards contract channels and refuses others without touching the transport', async () => {
    const t = transport();
    const api = buildConsoleApi(t.invoke, t.subscribe);
    expect(await api.invoke('session:get', {})).toEqual({ ok: true, value: { echoed: 'session:get' } });
    const refused = await api.invoke('fs:readFile' as IpcChannel, {} as never);
    expect(refused).toMatchObject({ ok: false, code: 'invalid_request' });
    expect(t.invoked).toEqual([{ channel: 'session:get', request: {} }]);
  });

  it('delivers contract events with their payload only, and unsubscribes', () => {
    const t = transport();
    const api = buildConsoleApi(t.invoke, t.subscribe);
    const seen: unknown[] = [];
    const off = api.on('outbox:changed', (summary) => seen.push(summary));
    t.fire('outbox:changed', { queued: 1, sending: 0, attention: 0 });
    off();
    t.fire('outbox:changed', { queued: 2, sending: 0, attention: 0 });
    expect(seen).toEqual([{ queued: 1, sending: 0, attention: 0 }]);
    expect(() => api.on('ipc:raw' as IpcEvent, () => undefined)).toThrow(/Unknown console event/);
    expect(() => api.on('session:changed', 'not a function' as never)).toThrow(TypeError);
  });
});

describe('the preload name lists', () => {
  it('are exactly the contract channels and events', async () => {
    const { IPC_CHANNELS, IPC_EVENTS } = await import('../../src-shared/console/ipc-contract.ts');
    const { IPC_CHANNEL_NAMES, IPC_EVENT_NAMES } = await import('../../src-shared/console/ipc-names.ts');
    expect([...IPC_CHANNEL_NAMES].sort()).toEqual(Object.keys(IPC_CHANNELS).sort());
    expect([...IPC_EVENT_NAMES].sort()).toEqual(Object.keys(IPC_EVENTS).sort());
  });
});
