import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../../src-shared/api/client.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { LOGIN_FAILED, createSessionStore } from '../../src-renderer/stores/session.ts';
import type { SessionApi } from '../../src-renderer/stores/session.ts';
import { AUTH_NETWORK_ERROR, callbackErrorMessage, completeLogin, providerErrorMessage } from '../../src-renderer/stores/signIn.ts';
import { makePlatform, makeUser } from './fakes.ts';

function fakeApi(overrides: Partial<SessionApi> = {}): SessionApi {
  return {
    getSession: vi.fn(async () => ({ user: makeUser() })),
    startSignIn: vi.fn(async () => ({ auth_url: 'http://provider.test/auth?x=1' })),
    signOut: vi.fn(async () => ({ message: 'ok' })),
    ...overrides,
  };
}

afterEach(() => vi.useRealTimers());

describe('session store', () => {
  it('loads the signed-in user from the session endpoint', async () => {
    const store = createSessionStore(fakeApi(), makePlatform());
    expect(store.getState().status).toBe('loading');
    await store.getState().load();
    expect(store.getState()).toMatchObject({ status: 'ready', user: { id: '1001' } });
  });

  it('clears the user when the re-check answers 401 or 403', async () => {
    for (const status of [401, 403]) {
      const api = fakeApi();
      const store = createSessionStore(api, makePlatform());
      await store.getState().load();
      api.getSession = vi.fn(async () => {
        throw new ApiError(status, 'nope', null);
      });
      await store.getState().recheck();
      expect(store.getState().user).toBeNull();
    }
  });

  it('keeps the user when the re-check fails on the network', async () => {
    const api = fakeApi();
    const store = createSessionStore(api, makePlatform());
    await store.getState().load();
    api.getSession = vi.fn(async () => {
      throw new NetworkError(new Error('offline'));
    });
    await store.getState().recheck();
    expect(store.getState().user?.id).toBe('1001');
    expect(store.getState().status).toBe('ready');
  });

  it('login fetches the provider address, remembers where to return and opens it', async () => {
    vi.useFakeTimers();
    const api = fakeApi();
    const platform = makePlatform();
    const store = createSessionStore(api, platform);
    const pending = store.getState().login('/petition/4');
    expect(store.getState().connecting).toBe(true);
    await pending;
    expect(api.startSignIn).toHaveBeenCalledWith({ returnTo: '/petition/4' });
    expect(platform.opened).toEqual(['http://provider.test/auth?x=1']);
    expect(platform.takeReturnTo()).toBe('/petition/4');
    expect(store.getState().connecting).toBe(true);
    vi.runAllTimers();
    expect(store.getState().connecting).toBe(false);
  });

  it('login failure shows a message and frees the button', async () => {
    const store = createSessionStore(
      fakeApi({
        startSignIn: vi.fn(async () => {
          throw new NetworkError(new Error('x'));
        }),
      }),
      makePlatform(),
    );
    await store.getState().login();
    expect(store.getState()).toMatchObject({ connecting: false, error: LOGIN_FAILED });
  });

  it('completeLogin exchanges the code, loads the user and returns the remembered path', async () => {
    const platform = makePlatform();
    platform.rememberReturnTo('/create-petition');
    const store = createSessionStore(fakeApi(), platform);
    const signIn = { finishSignIn: vi.fn(async () => ({ id: '1001' })) };
    const result = await completeLogin(store, signIn, platform, 'abc', 'st');
    expect(signIn.finishSignIn).toHaveBeenCalledWith('abc', 'st');
    expect(result).toEqual({ ok: true, returnTo: '/create-petition' });
    expect(store.getState()).toMatchObject({ completing: false, user: { id: '1001' } });
  });

  it('completeLogin maps failures to their texts', async () => {
    const cases: Array<[unknown, string]> = [
      [new ApiError(400, 'bad', null), ERRORS.invalidAuthorizationCode],
      [new ApiError(401, 'old', null), ERRORS.authenticationExpired],
      [new ApiError(502, 'down', null), ERRORS.authenticationServerError],
      [new NetworkError(new Error('x')), AUTH_NETWORK_ERROR],
    ];
    for (const [error, message] of cases) {
      const store = createSessionStore(fakeApi(), makePlatform());
      const signIn = {
        finishSignIn: vi.fn(async () => {
          throw error;
        }),
      };
      expect(await completeLogin(store, signIn, makePlatform(), 'c', 's')).toEqual({ ok: false, message });
      expect(store.getState().completing).toBe(false);
      expect(callbackErrorMessage(error)).toBe(message);
    }
  });

  it('logout ends the server session and clears the user', async () => {
    const api = fakeApi();
    const store = createSessionStore(api, makePlatform());
    await store.getState().load();
    await store.getState().logout();
    expect(api.signOut).toHaveBeenCalledWith('1001');
    expect(store.getState().user).toBeNull();
  });

  it('formats provider errors as docs/rules.md#texts-and-messages says', () => {
    expect(providerErrorMessage('access_denied', 'The user said no')).toBe(
      'Authentication failed: access_denied - The user said no',
    );
    expect(providerErrorMessage('access_denied', null)).toBe('Authentication failed: access_denied');
  });
});
