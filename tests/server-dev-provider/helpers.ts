import { expect } from 'vitest';
import {
  allowInsecureRequests,
  authorizationCodeGrant,
  buildAuthorizationUrl,
  calculatePKCECodeChallenge,
  ClientSecretBasic,
  discovery,
  randomNonce,
  randomPKCECodeVerifier,
  randomState,
  type Configuration,
} from 'openid-client';
import type { DevProvider } from '../../src-server/dev/provider/index.ts';
import { CookieJar, jarFetch } from '../support/cookie-jar.ts';
import { parseForms, type ParsedForm } from '../support/provider-forms.ts';

export { CookieJar, jarFetch, parseForms, type ParsedForm };

export const CLIENT_ID = 'petitions-test';
export const CLIENT_SECRET = 'petitions-test-secret';
export const REDIRECT_URI = 'http://127.0.0.1:3999/auth/callback';
export const TEST_CLIENTS = [{ client_id: CLIENT_ID, client_secret: CLIENT_SECRET, redirect_uris: [REDIRECT_URI] }];

/** Relying party exactly as the server builds it: discovery on the issuer URL, secret in the body. */
export function discoverClient(dev: DevProvider, auth: 'post' | 'basic' = 'post'): Promise<Configuration> {
  const options = { execute: [allowInsecureRequests] };
  return auth === 'post'
    ? discovery(new URL(dev.issuer), CLIENT_ID, CLIENT_SECRET, undefined, options)
    : discovery(new URL(dev.issuer), CLIENT_ID, undefined, ClientSecretBasic(CLIENT_SECRET), options);
}

export type Step =
  | { kind: 'page'; url: URL; status: number; html: string }
  | { kind: 'callback'; url: URL };

/** Follows redirects like a browser until we reach either a provider page or the app's redirect_uri. */
export async function follow(jar: CookieJar, start: URL, first?: Response): Promise<Step> {
  let url = start;
  let response = first ?? (await jarFetch(jar, url));
  for (let hops = 0; hops < 10; hops += 1) {
    if (response.status >= 300 && response.status < 400) {
      const location = response.headers.get('location');
      expect(location, `redirect from ${url.href} without Location`).toBeTruthy();
      url = new URL(location ?? '', url);
      await response.body?.cancel();
      if (url.href.startsWith(REDIRECT_URI)) return { kind: 'callback', url };
      response = await jarFetch(jar, url);
      continue;
    }
    const html = await response.text();
    // oidc-provider answers some steps (ending the previous session when the user switches
    // account) with a self-submitting form; a browser runs its script, so we post it ourselves.
    if (/document\.forms\[0\]\.submit\(\)/.test(html)) {
      const [form] = parseForms(html);
      if (!form) throw new Error('self-submitting page without a form');
      const fields = Object.fromEntries(form.inputs.map((i) => [i.name, i.value]));
      url = new URL(form.action, url);
      response = await jarFetch(jar, url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      });
      continue;
    }
    return { kind: 'page', url, status: response.status, html };
  }
  throw new Error('too many redirects');
}

export async function submitForm(jar: CookieJar, page: Extract<Step, { kind: 'page' }>, action: string, fields: Record<string, string>): Promise<Step> {
  const url = new URL(action, page.url);
  const response = await jarFetch(jar, url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return follow(jar, url, response);
}

export interface PendingAuthorization {
  url: URL;
  codeVerifier: string;
  state: string;
  nonce: string;
}

export async function startAuthorization(config: Configuration, extra: Record<string, string> = {}): Promise<PendingAuthorization> {
  const codeVerifier = randomPKCECodeVerifier();
  const state = randomState();
  const nonce = randomNonce();
  const url = buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: 'openid profile group:read',
    code_challenge: await calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  });
  return { url, codeVerifier, state, nonce };
}

export function expectPage(step: Step): Extract<Step, { kind: 'page' }> {
  if (step.kind !== 'page') throw new Error(`expected the sign-in page, got a redirect to ${step.url.href}`);
  return step;
}

export function expectCallback(step: Step): URL {
  if (step.kind !== 'callback') throw new Error(`expected a redirect to the app, got page ${step.url.href} (${step.status}): ${step.html.slice(0, 500)}`);
  return step.url;
}

export function personaForm(html: string): ParsedForm {
  const form = parseForms(html).find((f) => f.buttons.some((b) => b.name === 'persona'));
  if (!form) throw new Error('persona form not found');
  return form;
}

export function customForm(html: string): ParsedForm {
  const form = parseForms(html).find((f) => f.buttons.some((b) => b.text === 'Sign in as custom user'));
  if (!form) throw new Error('custom user form not found');
  return form;
}

/** Presses a persona button on the provider's page and returns where the browser lands. */
export async function pressPersona(jar: CookieJar, page: Extract<Step, { kind: 'page' }>, label: string): Promise<Step> {
  const form = personaForm(page.html);
  const button = form.buttons.find((b) => b.text === label);
  if (!button?.name || button.value === undefined) throw new Error(`no persona button labelled ${label}`);
  return submitForm(jar, page, form.action, { [button.name]: button.value });
}

/** Full browser leg: authorize → sign-in page → persona button → callback URL. */
export async function signInAs(config: Configuration, label: string, jar = new CookieJar(), extra: Record<string, string> = {}) {
  const pending = await startAuthorization(config, extra);
  const page = expectPage(await follow(jar, pending.url));
  const callbackUrl = expectCallback(await pressPersona(jar, page, label));
  return { ...pending, callbackUrl, jar };
}

/** Sign-in plus code exchange, validated like the server does it. */
export async function tokensFor(config: Configuration, label: string) {
  const { callbackUrl, codeVerifier, state, nonce } = await signInAs(config, label);
  return authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: codeVerifier,
    expectedState: state,
    expectedNonce: nonce,
    idTokenExpected: true,
  });
}

export async function getJson(url: URL, accessToken?: string): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const response = await fetch(url, accessToken ? { headers: { authorization: `Bearer ${accessToken}` } } : {});
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

export function membershipsUrl(dev: DevProvider, groupId: string, userId: string): URL {
  // Encoded the way the Roblox docs show it (and the way encodeURIComponent would), not as '+'.
  return new URL(`/cloud/v2/groups/${groupId}/memberships?filter=user%20%3D%3D%20'users%2F${userId}'&maxPageSize=1`, dev.apiBase);
}
