/** Start-up choice of identity provider: Roblox when configured, the local provider in development, a clear failure in production. */
import { describe, expect, it } from 'vitest';
import { IdentityConfigurationError, prepareIdentityProvider } from '../../src-server/auth/identity-provider-setup.ts';
import { loadConfig } from '../../src-server/config.ts';
import { startDevelopmentSignIn, type DevelopmentIdentityProvider } from '../../src-server/dev/dev-sign-in.ts';
import { DEV_ADMIN_USER_ID, DEV_CITIZEN_GROUP_ID, DEV_GOVERNMENT_GROUP_ID } from '../../src-server/dev/provider/index.ts';

const ROBLOX_ENV = {
  ROBLOX_CLIENT_ID: '1234567890',
  ROBLOX_CLIENT_SECRET: 'RBX-secret',
  PUBLIC_BASE_URL: 'https://petitions.example',
  CITIZEN_GROUP_ID: '111',
  GOVERNMENT_GROUP_ID: '222',
  ADMIN_USER_ID: '333',
  SESSION_SECRET: 'x'.repeat(48),
};

/** What the composition root (main.ts) hands in. */
const WITH_DEV_SIGN_IN = { developmentSignIn: startDevelopmentSignIn };

async function prepareInDevelopment(env: Record<string, string>): Promise<DevelopmentIdentityProvider> {
  const prepared = await prepareIdentityProvider(loadConfig({ NODE_ENV: 'development', ...env }), WITH_DEV_SIGN_IN);
  if (!('devProvider' in prepared)) throw new Error('the local provider did not start');
  return prepared as DevelopmentIdentityProvider;
}

describe('in production', () => {
  it('refuses to start without a Roblox client, and never starts the local provider', async () => {
    const attempt = prepareIdentityProvider(loadConfig({ NODE_ENV: 'production' }), WITH_DEV_SIGN_IN);
    await expect(attempt).rejects.toBeInstanceOf(IdentityConfigurationError);
    await expect(attempt).rejects.toThrow(/ROBLOX_CLIENT_ID and ROBLOX_CLIENT_SECRET.*never runs in production/s);
  });

  it('names every missing setting of a half-configured client', async () => {
    const attempt = prepareIdentityProvider(loadConfig({ NODE_ENV: 'production', ROBLOX_CLIENT_ID: '1', ROBLOX_CLIENT_SECRET: 's' }));
    await expect(attempt).rejects.toThrow('set PUBLIC_BASE_URL, CITIZEN_GROUP_ID, GOVERNMENT_GROUP_ID, SESSION_SECRET.');
  });

  it('requires a long SESSION_SECRET', async () => {
    await expect(prepareIdentityProvider(loadConfig({ NODE_ENV: 'production', ...ROBLOX_ENV, SESSION_SECRET: 'short' }))).rejects.toThrow(/at least 32/);
  });

  it('uses the configured Roblox client as is', async () => {
    const prepared = await prepareIdentityProvider(loadConfig({ NODE_ENV: 'production', ...ROBLOX_ENV }), WITH_DEV_SIGN_IN);
    expect('devProvider' in prepared).toBe(false);
    expect(prepared.config.roblox).toMatchObject({ clientId: '1234567890', issuer: 'https://apis.roblox.com/oauth/', apiBase: 'https://apis.roblox.com', citizenGroupId: '111' });
    expect(prepared.config.publicBaseUrl).toBe('https://petitions.example');
    expect(prepared.startupMessage).toBe('Sign in with Roblox at https://petitions.example');
    await prepared.close();
  });
});

describe('in development without Roblox credentials', () => {
  it('starts the local provider and points the server at it', async () => {
    const prepared = await prepareInDevelopment({ PORT: '3999', DEV_PROVIDER_PORT: '0' });
    try {
      const dev = prepared.devProvider;
      const { config } = prepared;
      expect(config.publicBaseUrl).toBe('http://localhost:3999');
      expect(config.roblox).toMatchObject({
        issuer: dev?.issuer,
        apiBase: dev?.apiBase,
        legacyGroupsBase: undefined,
        citizenGroupId: DEV_CITIZEN_GROUP_ID,
        governmentGroupId: DEV_GOVERNMENT_GROUP_ID,
      });
      expect(config.roblox.clientId).toMatch(/^petitions-dev-[0-9a-f]{8}$/);
      expect(config.roblox.clientSecret?.length).toBeGreaterThanOrEqual(40);
      expect(config.adminUserId).toBe(DEV_ADMIN_USER_ID);
      expect(prepared.startupMessage).toContain('open http://localhost:3999 and press "Login with ROBLOX"');

      // The generated client is registered with our callback: the provider accepts the request.
      const authorize = new URL(`${dev?.issuer}v1/authorize`);
      authorize.search = new URLSearchParams({
        client_id: config.roblox.clientId ?? '',
        redirect_uri: 'http://localhost:3999/auth/callback',
        response_type: 'code',
        scope: 'openid profile group:read',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        state: 'state-state-state',
        nonce: 'nonce-nonce-nonce',
      }).toString();
      const response = await fetch(authorize, { redirect: 'manual' });
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toMatch(/\/interaction\//);
    } finally {
      await prepared.close();
    }
  });

  it('keeps an ADMIN_USER_ID and PUBLIC_BASE_URL that were set', async () => {
    const prepared = await prepareInDevelopment({ DEV_PROVIDER_PORT: '0', ADMIN_USER_ID: '2001', PUBLIC_BASE_URL: 'http://127.0.0.1:4000/' });
    try {
      expect(prepared.config.adminUserId).toBe('2001');
      expect(prepared.config.publicBaseUrl).toBe('http://127.0.0.1:4000');
    } finally {
      await prepared.close();
    }
  });

  it('explains a busy provider port', async () => {
    const first = await prepareInDevelopment({ DEV_PROVIDER_PORT: '0' });
    try {
      const port = new URL(first.devProvider.apiBase).port;
      await expect(prepareInDevelopment({ DEV_PROVIDER_PORT: port })).rejects.toThrow(/set DEV_PROVIDER_PORT/);
    } finally {
      await first.close();
    }
  });

  it('does not start the local provider when a Roblox client is configured', async () => {
    const prepared = await prepareIdentityProvider(
      loadConfig({ NODE_ENV: 'development', ROBLOX_CLIENT_ID: 'id', ROBLOX_CLIENT_SECRET: 'secret', PORT: '3100' }),
      WITH_DEV_SIGN_IN,
    );
    expect('devProvider' in prepared).toBe(false);
    expect(prepared.config.publicBaseUrl).toBe('http://localhost:3100');
  });

  it('fails clearly when the process was built without the development sign-in', async () => {
    const attempt = prepareIdentityProvider(loadConfig({ NODE_ENV: 'development', DEV_PROVIDER_PORT: '0' }));
    await expect(attempt).rejects.toThrow(/No Roblox OAuth client is configured/);
  });
});
