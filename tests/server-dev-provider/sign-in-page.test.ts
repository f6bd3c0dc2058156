import { authorizationCodeGrant, fetchUserInfo, tokenRevocation, type Configuration } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_PERSONAS, startDevProvider, type DevProvider } from '../../src-server/dev/provider/index.ts';
import {
  CookieJar,
  TEST_CLIENTS,
  customForm,
  discoverClient,
  expectCallback,
  expectPage,
  follow,
  getJson,
  jarFetch,
  membershipsUrl,
  parseForms,
  personaForm,
  pressPersona,
  signInAs,
  startAuthorization,
  submitForm,
} from './helpers.ts';

const PERSONA_LABELS = ['Citizen', 'Non-citizen', 'Cabinet Minister', 'Leader of the House of Commons', 'Prime Minister', 'System Administrator'];

let dev: DevProvider;
let config: Configuration;
const logged: string[] = [];

beforeAll(async () => {
  dev = await startDevProvider({ clients: TEST_CLIENTS, logger: { info: (m) => logged.push(m) } });
  config = await discoverClient(dev);
});

afterAll(async () => {
  await dev?.close();
});

async function openSignInPage(jar = new CookieJar(), extra: Record<string, string> = {}) {
  const pending = await startAuthorization(config, extra);
  const page = expectPage(await follow(jar, pending.url));
  return { ...pending, page, jar };
}

describe('sign-in page', () => {
  it('lists exactly the six persona buttons, in order, plus the custom-user submit', async () => {
    const { page } = await openSignInPage();
    expect(page.status).toBe(200);
    expect(page.url.pathname).toMatch(/^\/interaction\/[\w-]+$/);
    expect(page.html).toContain('<title>Sign in — development provider</title>');

    expect(personaForm(page.html).buttons.map((b) => b.text)).toEqual(PERSONA_LABELS);
    expect(DEV_PERSONAS.map((p) => p.label)).toEqual(PERSONA_LABELS);
    const allButtons = parseForms(page.html).flatMap((f) => f.buttons.map((b) => b.text));
    expect(allButtons).toEqual([...PERSONA_LABELS, 'Sign in as custom user']);
  });

  it('labels every custom-user input and loads nothing from elsewhere', async () => {
    const { page } = await openSignInPage();
    const inputs = customForm(page.html).inputs;
    expect(inputs.map((i) => i.name)).toEqual(['userId', 'displayName', 'citizenRank', 'governmentRank', 'accountAgeDays', 'verified']);
    for (const input of inputs) {
      expect(page.html).toContain(`<label for="${input.id}">`);
    }
    expect(page.html).toMatch(/<legend>[\s\S]*Custom user[\s\S]*<\/legend>/);
    expect(page.html).not.toMatch(/<(script|link|iframe)\b/i);
    expect(page.html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    expect(page.html).not.toContain('@import');
  });

  it('answers an unknown or expired interaction with an error page, not a crash', async () => {
    const response = await fetch(new URL('/interaction/does-not-exist', dev.apiBase));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('expired');
  });

  it('cancelling sends error=access_denied back to the app', async () => {
    const { page, jar, state } = await openSignInPage();
    const cancel = /href="([^"]*\/abort)"/.exec(page.html)?.[1];
    expect(cancel).toBeTruthy();
    const callback = expectCallback(await follow(jar, new URL(cancel ?? '', page.url)));
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.has('code')).toBe(false);
  });
});

describe('sessions and prompt=login', () => {
  it('reuses the provider session silently, and prompt=login shows the picker again', async () => {
    const jar = new CookieJar();
    const first = await signInAs(config, 'Citizen', jar);
    const firstTokens = await authorizationCodeGrant(config, first.callbackUrl, {
      pkceCodeVerifier: first.codeVerifier, expectedState: first.state, expectedNonce: first.nonce, idTokenExpected: true,
    });
    expect(firstTokens.claims()?.sub).toBe('2001');

    // Like roblox.com, an existing session means no page at all the second time.
    const silent = await startAuthorization(config);
    const silentCallback = expectCallback(await follow(jar, silent.url));
    const silentTokens = await authorizationCodeGrant(config, silentCallback, {
      pkceCodeVerifier: silent.codeVerifier, expectedState: silent.state, expectedNonce: silent.nonce, idTokenExpected: true,
    });
    expect(silentTokens.claims()?.sub).toBe('2001');

    const { page, codeVerifier, state, nonce } = await openSignInPage(jar, { prompt: 'login' });
    expect(page.html).toContain('Currently signed in here as Casey Citizen');
    const callback = expectCallback(await pressPersona(jar, page, 'Prime Minister'));
    const switched = await authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true,
    });
    expect(switched.claims()).toMatchObject({ sub: '2008', preferred_username: 'DevPrimeMinister' });
  });

  it('supports prompt=select_account (as Roblox does), alone or with consent', async () => {
    const jar = new CookieJar();
    await signInAs(config, 'Citizen', jar);
    for (const prompt of ['select_account', 'select_account consent']) {
      const { page, codeVerifier, state, nonce } = await openSignInPage(jar, { prompt });
      expect(personaForm(page.html).buttons).toHaveLength(6);
      const callback = expectCallback(await pressPersona(jar, page, 'Citizen'));
      const tokens = await authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true,
      });
      expect(tokens.claims()?.sub).toBe('2001');
    }
  });

  it('answers prompt=none without a provider session with login_required', async () => {
    const { url, state } = await startAuthorization(config, { prompt: 'none' });
    const callback = expectCallback(await follow(new CookieJar(), url));
    expect(callback.searchParams.get('error')).toBe('login_required');
    expect(callback.searchParams.get('state')).toBe(state);
  });

  it('after the app revokes its tokens, signing in again re-consents silently for the same user', async () => {
    const jar = new CookieJar();
    const first = await signInAs(config, 'Cabinet Minister', jar);
    const firstTokens = await authorizationCodeGrant(config, first.callbackUrl, {
      pkceCodeVerifier: first.codeVerifier, expectedState: first.state, expectedNonce: first.nonce, idTokenExpected: true,
    });
    await tokenRevocation(config, firstTokens.refresh_token ?? '');

    // The grant is gone but the provider session is not: the consent prompt must not strand the user.
    const again = await startAuthorization(config);
    const callback = expectCallback(await follow(jar, again.url));
    const tokens = await authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: again.codeVerifier, expectedState: again.state, expectedNonce: again.nonce, idTokenExpected: true,
    });
    expect(tokens.claims()?.sub).toBe('2006');
    expect((await fetchUserInfo(config, tokens.access_token, '2006')).name).toBe('Morgan Minister');
    expect(logged.filter((m) => m.includes('re-consented as Cabinet Minister'))).toHaveLength(1);
  });

  it('rejects a persona id that is not one of the personas', async () => {
    const { page, jar } = await openSignInPage();
    const step = expectPage(await submitForm(jar, page, personaForm(page.html).action, { persona: '9999' }));
    expect(step.status).toBe(400);
    expect(step.html).toContain('Choose one of the personas.');
  });
});

describe('custom user form', () => {
  it('re-shows the form with escaped values and per-field errors for bad input', async () => {
    const { page, jar } = await openSignInPage();
    const action = customForm(page.html).action;
    const step = expectPage(await submitForm(jar, page, action, {
      userId: '12ab',
      displayName: '<script>alert("x")</script>',
      citizenRank: '300',
      governmentRank: '',
    }));
    expect(step.status).toBe(400);
    expect(step.html).toContain('<title>Error: Sign in — development provider</title>');
    expect(step.html).toContain('There is a problem');
    expect(step.html).toContain('User id must be 1 to 16 digits');
    expect(step.html).toContain('Citizen rank must be a whole number from 0 to 255');
    expect(step.html).toContain('Government rank must be a whole number from 0 to 255');
    expect(step.html).not.toContain('<script>alert');
    expect(step.html).toContain('value="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"');
    const invalid = customForm(step.html).inputs.filter((i) => new RegExp(`id="${i.id}"[^>]*aria-invalid="true"`).test(step.html));
    expect(invalid.map((i) => i.name)).toEqual(['userId', 'citizenRank', 'governmentRank']);
  });

  it('refuses to overwrite a persona id', async () => {
    const { page, jar } = await openSignInPage();
    const step = expectPage(await submitForm(jar, page, customForm(page.html).action, {
      userId: '2008', displayName: 'Impostor', citizenRank: '1', governmentRank: '8',
    }));
    expect(step.status).toBe(400);
    expect(step.html).toContain('belongs to the Prime Minister persona');
  });

  it('signs in a custom user (after a failed attempt) and serves their ranks from the group APIs', async () => {
    const { page, jar, codeVerifier, state, nonce } = await openSignInPage();
    const retry = expectPage(await submitForm(jar, page, customForm(page.html).action, {
      userId: '3005', displayName: '', citizenRank: '3', governmentRank: '42',
    }));
    expect(retry.status).toBe(400);
    expect(retry.html).toContain('Enter a display name');

    const callback = expectCallback(await submitForm(jar, retry, customForm(retry.html).action, {
      userId: '3005', displayName: '  Quinn Custom  ', citizenRank: '3', governmentRank: '42',
    }));
    const tokens = await authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({ sub: '3005', name: 'Quinn Custom', preferred_username: 'Dev_3005' });
    expect((await fetchUserInfo(config, tokens.access_token, '3005')).name).toBe('Quinn Custom');

    const gov = await getJson(membershipsUrl(dev, '5550002', '3005'), tokens.access_token);
    const membership = (gov.body.groupMemberships as { role: string }[])[0];
    const role = await getJson(new URL(`/cloud/v2/${membership?.role ?? ''}`, dev.apiBase), tokens.access_token);
    expect(role.body).toMatchObject({ rank: 42, displayName: 'Rank 42', memberCount: 1 });

    const legacy = await getJson(new URL('/v2/users/3005/groups/roles', dev.apiBase));
    expect((legacy.body.data as { role: { rank: number } }[]).map((d) => d.role.rank)).toEqual([3, 42]);
  });

  it('gives a custom user the account age and verified flag typed in (created_at and verified claims)', async () => {
    const { page, jar, codeVerifier, state, nonce } = await openSignInPage(new CookieJar(), { scope: 'openid profile group:read verification' });
    const bad = expectPage(await submitForm(jar, page, customForm(page.html).action, {
      userId: '3007', displayName: 'Alt Account', citizenRank: '1', governmentRank: '0', accountAgeDays: 'two',
    }));
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Account age must be a whole number of days from 0 to 7300');
    const callback = expectCallback(await submitForm(jar, bad, customForm(bad.html).action, {
      userId: '3007', displayName: 'Alt Account', citizenRank: '1', governmentRank: '0', accountAgeDays: '2', verified: 'yes',
    }));
    const tokens = await authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true,
    });
    const createdAt = Number(tokens.claims()?.created_at);
    expect(Math.abs(Date.now() / 1000 - 2 * 86_400 - createdAt)).toBeLessThan(120);
    expect(await fetchUserInfo(config, tokens.access_token, '3007')).toMatchObject({ sub: '3007', created_at: createdAt, verified: true });
  });

  it('gives each persona a realistic account age', async () => {
    const ages = DEV_PERSONAS.map((persona) => persona.accountAgeDays);
    expect(Math.min(...ages)).toBeGreaterThan(0);
    expect(Math.max(...ages)).toBeLessThan(20 * 365);
    expect(DEV_PERSONAS.find((persona) => persona.label === 'Citizen')?.accountAgeDays).toBeGreaterThan(30);
  });

  it('keeps the interaction cookie scoped to the interaction path', async () => {
    const { page, jar } = await openSignInPage();
    expect(jar.names()).toContain('_interaction');
    // A request outside /interaction/<uid> must not carry it (so other tabs' flows do not collide).
    const elsewhere = await jarFetch(jar, new URL('/interaction/other-uid', page.url));
    expect(elsewhere.status).toBe(400);
  });
});
