import { describe, expect, it } from 'vitest';
import { IPC_CHANNELS, type IpcHandlers } from '../../src-shared/console/ipc-contract.ts';
import { dispatch, isTrustedSender } from '../../src-main/node/ipc/dispatch.ts';
import { IpcFailure } from '../../src-main/node/ipc-failure.ts';

const TRUSTED = ['app://console'];
const APP_MAIN_FRAME = { url: 'app://console/index.html', isMainFrame: true };

const session = { user: null, connection: 'signin_needed' as const, lastContactAt: null, queuedForOthers: [] };

/** Handlers that record what reached them; every channel answers within the contract unless told otherwise. */
function recordingHandlers(overrides: Partial<Record<keyof IpcHandlers, (request: unknown) => Promise<unknown>>> = {}) {
  const calls: { channel: string; request: unknown }[] = [];
  const handlers = Object.fromEntries(
    Object.keys(IPC_CHANNELS).map((channel) => [
      channel,
      async (request: unknown) => {
        calls.push({ channel, request });
        const override = overrides[channel as keyof IpcHandlers];
        if (override) return override(request);
        return channel.startsWith('session:') ? session : { ok: true };
      },
    ]),
  ) as unknown as IpcHandlers;
  return { handlers, calls };
}

describe('the IPC dispatcher', () => {
  it('runs a handler for the console main frame with the parsed request', async () => {
    const { handlers, calls } = recordingHandlers();
    const result = await dispatch(handlers, APP_MAIN_FRAME, TRUSTED, 'session:signOut', {});
    expect(result).toEqual({ ok: true, value: session });
    // The schema's default filled in: the handler sees parsed input, not what the renderer sent.
    expect(calls).toEqual([{ channel: 'session:signOut', request: { discardQueued: false } }]);
  });

  it('refuses forged senders before parsing anything or running a handler', async () => {
    const { handlers, calls } = recordingHandlers();
    const forged = [
      null,
      undefined,
      { url: 'app://console/index.html', isMainFrame: false }, // an iframe in our page
      { url: 'https://evil.example/', isMainFrame: true },
      { url: 'app://evil/index.html', isMainFrame: true },
      { url: 'file:///home/user/index.html', isMainFrame: true },
      { url: 'not a url', isMainFrame: true },
      { url: 'app://console.evil.example/', isMainFrame: true },
    ];
    for (const sender of forged) {
      const result = await dispatch(handlers, sender, TRUSTED, 'session:get', {});
      expect(result, JSON.stringify(sender)).toMatchObject({ ok: false, code: 'forbidden_sender' });
      expect(isTrustedSender(sender, TRUSTED)).toBe(false);
    }
    expect(calls).toEqual([]);
  });

  it('refuses unknown channels and payloads that fail the schema', async () => {
    const { handlers, calls } = recordingHandlers();
    expect(await dispatch(handlers, APP_MAIN_FRAME, TRUSTED, 'fs:readFile', {})).toMatchObject({ ok: false, code: 'invalid_request' });
    expect(await dispatch(handlers, APP_MAIN_FRAME, TRUSTED, '__proto__', {})).toMatchObject({ ok: false, code: 'invalid_request' });
    expect(await dispatch(handlers, APP_MAIN_FRAME, TRUSTED, 'toString', {})).toMatchObject({ ok: false, code: 'invalid_request' });
    // Extra keys on a strict request, wrong types, reads outside /api/, and dot segments.
    const bad: [string, unknown][] = [
      ['session:get', { sneaky: true }],
      ['session:signOut', { discardQueued: 'yes' }],
      ['data:read', { path: 'https://evil.example/api/x' }],
      ['data:read', { path: '/api/../admin' }],
      ['outbox:enqueue', { actions: [] }],
      ['platform:openExternal', { url: 'not a url' }],
      ['platform:notify', { title: '', body: 'x' }],
      ['outbox:retry', 'id-1'],
    ];
    for (const [channel, payload] of bad) {
      const result = await dispatch(handlers, APP_MAIN_FRAME, TRUSTED, channel, payload);
      expect(result, `${channel} ${JSON.stringify(payload)}`).toMatchObject({ ok: false, code: 'invalid_request' });
    }
    expect(calls).toEqual([]);
  });

  it('data:read takes only canonical /api/ paths: nothing a URL parser would walk out of /api/', async () => {
    const { handlers, calls } = recordingHandlers({ 'data:read': async () => ({ data: null, fetchedAt: '2026-01-01T00:00:00.000Z', fromCache: false }) });
    const refused: [string, RegExp][] = [
      ['/api/%2e%2e/healthz', /percent-encoded/], // fetch resolves %2e%2e as ".."
      ['/api/%2E%2E/healthz', /percent-encoded/],
      ['/api/.%2e/healthz', /percent-encoded/],
      ['/api/petitions/%2e', /percent-encoded/],
      ['/api/petitions%2f..%2f..%2fhealthz', /percent-encoded/],
      ['/api/petitions%2F1', /percent-encoded/],
      ['/api/petitions%5c..%5chealthz', /percent-encoded/],
      ['/api/%252e%252e/healthz', /percent-encoded/], // decoded twice by a careless proxy
      ['/api/petitions/./1', /"\." or "\.\." segments/],
      ['/api/..', /"\." or "\.\." segments/],
      ['/api/../healthz?x=1', /"\." or "\.\." segments/],
      ['/api/x\\..\\healthz', /backslashes/],
      ['/api/petitions\\1', /backslashes/],
      ['/api//evil.example/x', /empty segments/],
      ['//evil.example/api/x', /under \/api\//],
      ['https://evil.example/api/x', /under \/api\//],
      ['/healthz', /under \/api\//],
      ['/api/petitions#fragment', /outside a URL/],
      ['/api/petitions?q=a b', /outside a URL/],
      ['/api/petitions?q=%zz', /starts no escape/],
      [`/api/${'x'.repeat(2000)}`, /2000/],
    ];
    for (const [path, message] of refused) {
      const result = await dispatch(handlers, APP_MAIN_FRAME, TRUSTED, 'data:read', { path });
      expect(result, path).toMatchObject({ ok: false, code: 'invalid_request' });
      expect(result.ok ? '' : result.message, path).toMatch(message);
    }
    expect(calls).toEqual([]);

    // Queries may escape anything (they are not resolved as paths); ordinary reads pass unchanged.
    const accepted = ['/api/petitions', '/api/petitions?state=open&sort=most_signatures', '/api/petitions?q=a%2Fb%2E%2e', '/api/petitions/12', '/api/admin/users/caf%C3%A9', '/api/petitions/'];
    for (const path of accepted) {
      expect(await dispatch(handlers, APP_MAIN_FRAME, TRUSTED, 'data:read', { path }), path).toMatchObject({ ok: true });
    }
    expect(calls.map((call) => call.request)).toEqual(accepted.map((path) => ({ path })));
  });

  it('validates responses: a handler answering outside the contract is a failure, not data for the renderer', async () => {
    const errors: string[] = [];
    const { handlers } = recordingHandlers({
      'session:get': async () => ({ user: null, connection: 'online', lastContactAt: null, queuedForOthers: [], token: undefined, extra: 1 }),
      'update:status': async () => ({ state: 'exploded', version: null, message: null }),
    });
    const stripped = await dispatch(handlers, APP_MAIN_FRAME, TRUSTED, 'session:get', {});
    // Unknown keys (like a token a handler should never return) are stripped by the schema.
    expect(stripped).toEqual({ ok: true, value: { user: null, connection: 'online', lastContactAt: null, queuedForOthers: [] } });
    const invalid = await dispatch(handlers, APP_MAIN_FRAME, TRUSTED, 'update:status', {}, (channel) => errors.push(channel));
    expect(invalid).toMatchObject({ ok: false, code: 'failed' });
    expect(errors).toEqual(['update:status']);
  });

  it('turns IpcFailure into its code and anything else into failed', async () => {
    const { handlers } = recordingHandlers({
      'outbox:retry': async () => {
        throw new IpcFailure('not_found', 'No such entry.');
      },
      'sync:now': async () => {
        throw new Error('disk on fire');
      },
    });
    expect(await dispatch(handlers, APP_MAIN_FRAME, TRUSTED, 'outbox:retry', { id: 'x' })).toEqual({ ok: false, code: 'not_found', message: 'No such entry.' });
    expect(await dispatch(handlers, APP_MAIN_FRAME, TRUSTED, 'sync:now', {})).toEqual({ ok: false, code: 'failed', message: 'disk on fire' });
  });
});
