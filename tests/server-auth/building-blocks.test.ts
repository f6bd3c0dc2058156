/** The small pieces of sign-in on their own: token sealing, redirect checks, rank choice, error classes, cookies. */
import Fastify from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { ClientError, ResponseBodyError } from 'openid-client';
import { describe, expect, it } from 'vitest';
import { effectiveRank } from '../../src-server/auth/group-ranks.ts';
import { initialsOf, initialsSvg } from '../../src-server/auth/initials-avatar.ts';
import { classifyProviderError, isInvalidGrant } from '../../src-server/auth/provider-errors.ts';
import { loopbackRedirectUri, safeReturnTo } from '../../src-server/auth/redirect-targets.ts';
import { profileFromClaims } from '../../src-server/auth/sign-in.ts';
import { createTokenVault } from '../../src-server/auth/token-vault.ts';
import { cookieSettings, setSessionCookie } from '../../src-server/http/viewer.ts';
import { officeRank } from '../../src-shared/rules/roles.ts';

const TOKENS = { access_token: 'at-123', access_expires_at: 1_700_000_000_000, refresh_token: 'rt-456' };

describe('token vault (AES-256-GCM)', () => {
  it('opens what it sealed, for the same session only', () => {
    const vault = createTokenVault('a-long-session-secret-for-the-tests-000');
    const sealed = vault.seal(TOKENS, 'session-a');
    expect(sealed).not.toContain('rt-456');
    expect(sealed).not.toContain('at-123');
    expect(vault.open(sealed, 'session-a')).toEqual(TOKENS);
    expect(vault.open(sealed, 'session-b')).toBeNull();
  });

  it('uses a fresh IV every time', () => {
    const vault = createTokenVault('secret-secret-secret-secret-secret');
    expect(vault.seal(TOKENS, 's')).not.toBe(vault.seal(TOKENS, 's'));
  });

  it('refuses blobs from another key or tampered ones', () => {
    const sealed = createTokenVault('first-secret-first-secret-first-secret').seal(TOKENS, 's');
    expect(createTokenVault('other-secret-other-secret-other-secret').open(sealed, 's')).toBeNull();
    const [format, iv, tag, body = ''] = sealed.split('.');
    // Change the first character of the ciphertext to a different one: always a real tampering.
    const flipped = `${body.startsWith('A') ? 'B' : 'A'}${body.slice(1)}`;
    expect(createTokenVault('first-secret-first-secret-first-secret').open([format, iv, tag, flipped].join('.'), 's')).toBeNull();
    expect(createTokenVault('first-secret-first-secret-first-secret').open('garbage', 's')).toBeNull();
  });

  it('without a secret, keys are per process: another vault cannot open the blob', () => {
    const sealed = createTokenVault(undefined).seal(TOKENS, 's');
    expect(createTokenVault(undefined).open(sealed, 's')).toBeNull();
  });
});

describe('returnTo', () => {
  it.each([
    ['/petition/1', '/petition/1'],
    ['/petitions?status=open#top', '/petitions?status=open#top'],
    ['/', '/'],
    [undefined, null],
    ['', null],
    ['petition/1', null],
    ['//evil.example', null],
    ['/\\evil.example', null],
    ['https://evil.example/', null],
    ['/\t/evil.example', null],
    ['/\n/evil.example', null],
    [`/${'a'.repeat(600)}`, null],
  ])('%j → %j', (input, expected) => {
    expect(safeReturnTo(input)).toBe(expected);
  });
});

describe('loopback redirect for the console', () => {
  it.each([
    ['http://127.0.0.1:53682/callback', 'http://127.0.0.1:53682/callback'],
    ['http://localhost:8000/cb', 'http://localhost:8000/cb'],
    ['http://[::1]:8000/cb', 'http://[::1]:8000/cb'],
    ['http://127.0.0.1/callback', null],
    ['https://127.0.0.1:8000/cb', null],
    ['http://127.0.0.2:8000/cb', null],
    ['http://localhost.evil.example:8000/cb', null],
    ['http://user:pw@127.0.0.1:8000/cb', null],
    ['http://127.0.0.1:8000/cb#x', null],
    ['not a url', null],
  ])('%s → %s', (input, expected) => {
    expect(loopbackRedirectUri(input)).toBe(expected);
  });
});

describe('choosing one rank from several roles', () => {
  const isOffice = (rank: number) => officeRank(rank) !== 0;
  it('prefers an office over a higher non-office rank', () => {
    expect(effectiveRank([255, 7], isOffice)).toBe(7);
    expect(effectiveRank([6, 8], isOffice)).toBe(8);
  });
  it('otherwise takes the highest rank, or 0 for no membership', () => {
    expect(effectiveRank([3, 254], isOffice)).toBe(254);
    expect(effectiveRank([], isOffice)).toBe(0);
  });
});

describe('provider errors', () => {
  const bodyError = (error: string, status: number) =>
    new ResponseBodyError('server responded with an error in the response body', {
      cause: { error },
      response: new Response(null, { status }),
    } as never);

  it('treats a refused grant and failed ID token checks as the user’s sign-in being invalid', () => {
    expect(classifyProviderError(bodyError('invalid_grant', 400))).toBe('rejected');
    const nonce = new ClientError('unexpected JWT claim value encountered');
    nonce.code = 'OAUTH_JWT_CLAIM_COMPARISON_FAILED';
    expect(classifyProviderError(nonce)).toBe('rejected');
  });

  it('treats outages and our own misconfiguration as the provider being unavailable', () => {
    expect(classifyProviderError(bodyError('invalid_client', 401))).toBe('unavailable');
    expect(classifyProviderError(bodyError('server_error', 500))).toBe('unavailable');
    const timeout = new ClientError('operation timed out');
    timeout.code = 'OAUTH_TIMEOUT';
    expect(classifyProviderError(timeout)).toBe('unavailable');
    expect(classifyProviderError(new TypeError('fetch failed'))).toBe('unavailable');
  });

  it('recognises invalid_grant on refresh', () => {
    expect(isInvalidGrant(bodyError('invalid_grant', 400))).toBe(true);
    expect(isInvalidGrant(bodyError('invalid_client', 401))).toBe(false);
  });
});

describe('profile from Roblox claims', () => {
  const ranks = { citizenRank: 1, governmentRank: 0, groupsUnavailable: false, source: 'open-cloud' as const };
  it('keys on sub and takes the names and an http(s) picture', () => {
    expect(profileFromClaims('42', { preferred_username: 'builder', name: 'Bob', picture: 'https://tr.rbxcdn.com/x/150/150/AvatarHeadshot/Png' }, ranks)).toEqual({
      id: '42', username: 'builder', displayName: 'Bob', avatarUrl: 'https://tr.rbxcdn.com/x/150/150/AvatarHeadshot/Png', citizenRank: 1, governmentRank: 0, groupsUnavailable: false,
    });
  });
  it('copes with a null picture and missing names', () => {
    expect(profileFromClaims('42', { picture: null }, ranks)).toMatchObject({ username: 'user42', displayName: 'user42', avatarUrl: null });
    expect(profileFromClaims('42', { nickname: 'Nick', picture: 'javascript:alert(1)' }, ranks)).toMatchObject({ displayName: 'Nick', avatarUrl: null });
  });
});

describe('initials avatar', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initialsOf('Casey Citizen')).toBe('CC');
    expect(initialsOf('Pat de la Premier')).toBe('PP');
    expect(initialsOf('madonna')).toBe('M');
    expect(initialsOf('  ')).toBe('?');
  });
  it('escapes the text it draws', () => {
    expect(initialsSvg('1', '<b> &')).toContain('>&#60;&#38;</text>');
  });
});

describe('session cookie over https', () => {
  it('is Secure with the __Host- prefix, HttpOnly and SameSite=Lax', async () => {
    const settings = cookieSettings('https://petitions.example');
    expect(settings).toEqual({ name: '__Host-petitions_session', secure: true });
    const app = Fastify();
    await app.register(fastifyCookie);
    app.get('/', async (_request, reply) => {
      setSessionCookie(reply, settings, 'token');
      return 'ok';
    });
    const response = await app.inject({ url: '/' });
    const header = String(response.headers['set-cookie']);
    expect(header).toMatch(/^__Host-petitions_session=token;/);
    expect(header).toMatch(/; Path=\//);
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; Secure/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).not.toMatch(/Domain=/i);
    await app.close();
  });
});
