import { decodeProtectedHeader } from 'jose';
import {
  authorizationCodeGrant,
  fetchUserInfo,
  refreshTokenGrant,
  tokenIntrospection,
  tokenRevocation,
  type Configuration,
} from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevProvider, type DevProvider } from '../../src-server/dev/provider/index.ts';
import {
  CLIENT_ID,
  CLIENT_SECRET,
  CookieJar,
  REDIRECT_URI,
  TEST_CLIENTS,
  discoverClient,
  expectCallback,
  follow,
  getJson,
  membershipsUrl,
  signInAs,
  startAuthorization,
  tokensFor,
} from './helpers.ts';

let dev: DevProvider;
let config: Configuration;

beforeAll(async () => {
  dev = await startDevProvider({ clients: TEST_CLIENTS });
  config = await discoverClient(dev);
});

afterAll(async () => {
  await dev?.close();
});

describe('discovery', () => {
  it('publishes Roblox paths under /oauth with the trailing-slash issuer', async () => {
    expect(dev.issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/oauth\/$/);
    expect(dev.apiBase).toBe(dev.issuer.replace(/\/oauth\/$/, ''));

    const { status, body } = await getJson(new URL('/oauth/.well-known/openid-configuration', dev.apiBase));
    expect(status).toBe(200);
    expect(body).toMatchObject({
      issuer: dev.issuer,
      authorization_endpoint: `${dev.apiBase}/oauth/v1/authorize`,
      token_endpoint: `${dev.apiBase}/oauth/v1/token`,
      userinfo_endpoint: `${dev.apiBase}/oauth/v1/userinfo`,
      jwks_uri: `${dev.apiBase}/oauth/v1/certs`,
      revocation_endpoint: `${dev.apiBase}/oauth/v1/token/revoke`,
      introspection_endpoint: `${dev.apiBase}/oauth/v1/token/introspect`,
      id_token_signing_alg_values_supported: ['ES256'],
      scopes_supported: ['openid', 'profile', 'group:read', 'verification'],
      response_types_supported: ['code'],
    });
    expect(new Set(body.token_endpoint_auth_methods_supported as string[])).toEqual(new Set(['client_secret_post', 'client_secret_basic']));
    // Roblox has no RP-initiated logout; the dev stand-in must not tempt the server to use one.
    expect(body).not.toHaveProperty('end_session_endpoint');
    expect(config.serverMetadata().issuer).toBe(dev.issuer);
  });

  it('serves a single ES256 signing key at /oauth/v1/certs', async () => {
    const { status, body } = await getJson(new URL('/oauth/v1/certs', dev.apiBase));
    expect(status).toBe(200);
    const keys = body.keys as Record<string, unknown>[];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(keys[0]).not.toHaveProperty('d');
  });
});

describe('authorization code flow', () => {
  it('signs in as Citizen and returns ES256 tokens with Roblox-shaped claims', async () => {
    const { callbackUrl, codeVerifier, state, nonce } = await signInAs(config, 'Citizen');
    expect(callbackUrl.searchParams.get('state')).toBe(state);
    expect(callbackUrl.searchParams.get('code')).toBeTruthy();
    expect(callbackUrl.searchParams.get('iss')).toBe(dev.issuer);

    const tokens = await authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
      expectedNonce: nonce,
      idTokenExpected: true,
    });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(900);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens.scope?.split(' ').sort()).toEqual(['group:read', 'openid', 'profile']);

    const idToken = tokens.id_token ?? '';
    const header = decodeProtectedHeader(idToken);
    expect(header.alg).toBe('ES256');
    expect(header.kid).toEqual(expect.any(String));

    const claims = tokens.claims();
    expect(claims).toMatchObject({
      sub: '2001',
      iss: dev.issuer,
      aud: CLIENT_ID,
      nonce,
      name: 'Casey Citizen',
      nickname: 'Casey Citizen',
      preferred_username: 'DevCitizen',
      profile: `${dev.apiBase}/users/2001/profile`,
      picture: `${dev.apiBase}/headshots/2001.png`,
    });
    expect(claims?.created_at).toEqual(expect.any(Number));
    expect((claims?.exp ?? 0) - (claims?.iat ?? 0)).toBe(36_000);

    const userinfo = await fetchUserInfo(config, tokens.access_token, '2001');
    expect(userinfo).toEqual({
      sub: '2001',
      name: 'Casey Citizen',
      nickname: 'Casey Citizen',
      preferred_username: 'DevCitizen',
      created_at: claims?.created_at,
      profile: `${dev.apiBase}/users/2001/profile`,
      picture: `${dev.apiBase}/headshots/2001.png`,
    });
  });

  it('requires PKCE: an authorization request without code_challenge is refused', async () => {
    const { url, state } = await startAuthorization(config);
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const callback = expectCallback(await follow(new CookieJar(), url));
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('error_description')).toMatch(/PKCE/);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.has('code')).toBe(false);
  });

  it('rejects a second use of the same code and revokes what the first use issued', async () => {
    const { callbackUrl, codeVerifier, state, nonce } = await signInAs(config, 'Citizen');
    const checks = { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true };
    const first = await authorizationCodeGrant(config, callbackUrl, checks);
    expect(first.access_token).toBeTruthy();

    await expect(authorizationCodeGrant(config, callbackUrl, checks)).rejects.toMatchObject({ error: 'invalid_grant' });
    const after = await getJson(membershipsUrl(dev, '5550001', '2001'), first.access_token);
    expect(after.status).toBe(401);
  });

  it('rejects a code exchanged with the wrong PKCE verifier', async () => {
    const { callbackUrl, state, nonce } = await signInAs(config, 'Citizen');
    await expect(authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: 'x'.repeat(43),
      expectedState: state,
      expectedNonce: nonce,
    })).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('accepts client_secret_basic as well as client_secret_post at the token endpoint', async () => {
    const basicConfig = await discoverClient(dev, 'basic');
    const tokens = await tokensFor(basicConfig, 'Prime Minister');
    expect(tokens.claims()?.sub).toBe('2008');

    // openid-client hides which method it used, so prove Basic with a hand-made request too.
    const { callbackUrl, codeVerifier } = await signInAs(config, 'Prime Minister');
    const tokenRequest = (secret: string) =>
      fetch(new URL('/oauth/v1/token', dev.apiBase), {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${secret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code: callbackUrl.searchParams.get('code') ?? '',
          redirect_uri: REDIRECT_URI,
          code_verifier: codeVerifier,
        }),
      });
    const wrong = await tokenRequest('not-the-secret');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
    const right = await tokenRequest(CLIENT_SECRET);
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String), id_token: expect.any(String) });
  });
});

describe('refresh and revocation', () => {
  it('rotates the refresh token; the old one then fails with invalid_grant', async () => {
    const tokens = await tokensFor(config, 'Cabinet Minister');
    const oldRefresh = tokens.refresh_token ?? '';

    const refreshed = await refreshTokenGrant(config, oldRefresh);
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(oldRefresh);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(refreshed.claims()?.sub).toBe('2006');
    expect((await fetchUserInfo(config, refreshed.access_token, '2006')).preferred_username).toBe('DevMinister');

    await expect(refreshTokenGrant(config, oldRefresh)).rejects.toMatchObject({ error: 'invalid_grant' });
    // oidc-provider treats the replay as theft and revokes the whole grant, rotated token included.
    await expect(refreshTokenGrant(config, refreshed.refresh_token ?? '')).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('revoking the refresh token ends the authorization (refresh, userinfo and group API all refuse)', async () => {
    const tokens = await tokensFor(config, 'Citizen');
    const refreshToken = tokens.refresh_token ?? '';
    expect((await tokenIntrospection(config, tokens.access_token)).active).toBe(true);
    expect((await getJson(membershipsUrl(dev, '5550001', '2001'), tokens.access_token)).status).toBe(200);

    await tokenRevocation(config, refreshToken);

    await expect(refreshTokenGrant(config, refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
    await expect(fetchUserInfo(config, tokens.access_token, '2001')).rejects.toThrow();
    const groups = await getJson(membershipsUrl(dev, '5550001', '2001'), tokens.access_token);
    expect(groups.status).toBe(401);
    expect(groups.body).toMatchObject({ code: 'UNAUTHENTICATED', message: expect.any(String) });
    expect((await tokenIntrospection(config, tokens.access_token)).active).toBe(false);
  });

  it('introspection reports the subject, client and scope of a live access token', async () => {
    const tokens = await tokensFor(config, 'System Administrator');
    const info = await tokenIntrospection(config, tokens.access_token);
    expect(info).toMatchObject({ active: true, sub: '2000', client_id: CLIENT_ID });
    expect(info.scope?.split(' ').sort()).toEqual(['group:read', 'openid', 'profile']);
  });
});
