/**
 * A browser without a browser: fetch plus a cookie jar per origin, following redirects, reading the
 * provider's sign-in page and pressing its buttons. The app's own calls go through `appFetch`,
 * which behaves like the web app (same-origin Origin, the CSRF header on unsafe methods).
 */
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '../../src-shared/domain/constants.ts';
import { DEV_CONSOLE_REDIRECT_URI } from '../../src-server/dev/dev-sign-in.ts';
import { CookieJar, jarFetch } from '../support/cookie-jar.ts';
import { parseForms } from '../support/provider-forms.ts';

export { CookieJar };
import type { Stack } from '../support/stack.ts';

const CONSOLE_ORIGIN = new URL(DEV_CONSOLE_REDIRECT_URI).origin;

export type Landing = { kind: 'page'; url: URL; status: number; html: string } | { kind: 'app'; url: URL };

/** Follows redirects until we land back on the app (origin of `appBase`) or on a provider page. */
export async function follow(jar: CookieJar, start: URL, appBase: string, first?: Response): Promise<Landing> {
  let url = start;
  let response = first ?? (await jarFetch(jar, url));
  for (let hops = 0; hops < 12; hops += 1) {
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location') ?? '', url);
      await response.body?.cancel();
      if (url.origin === new URL(appBase).origin || url.origin === CONSOLE_ORIGIN) return { kind: 'app', url };
      response = await jarFetch(jar, url);
      continue;
    }
    const html = await response.text();
    // oidc-provider ends a previous provider session with a self-submitting form; a browser runs it.
    if (/document\.forms\[0\]\.submit\(\)/.test(html)) {
      const form = parseForms(html)[0];
      if (!form) throw new Error('self-submitting page without a form');
      url = new URL(form.action, url);
      response = await jarFetch(jar, url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(Object.fromEntries(form.inputs.map((i) => [i.name, i.value]))).toString(),
      });
      continue;
    }
    return { kind: 'page', url, status: response.status, html };
  }
  throw new Error('too many redirects');
}

async function submit(jar: CookieJar, page: Extract<Landing, { kind: 'page' }>, action: string, fields: Record<string, string>, appBase: string): Promise<Landing> {
  const url = new URL(action, page.url);
  const response = await jarFetch(jar, url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return follow(jar, url, appBase, response);
}

export function expectProviderPage(landing: Landing): Extract<Landing, { kind: 'page' }> {
  if (landing.kind !== 'page') throw new Error(`expected the provider's sign-in page, landed on ${landing.url.href}`);
  return landing;
}

export function expectAppLanding(landing: Landing): URL {
  if (landing.kind !== 'app') throw new Error(`expected a redirect back to the app, got ${landing.url.href} (${landing.status}): ${landing.html.slice(0, 400)}`);
  return landing.url;
}

export async function pressPersona(jar: CookieJar, page: Extract<Landing, { kind: 'page' }>, label: string, appBase: string): Promise<Landing> {
  const form = parseForms(page.html).find((f) => f.buttons.some((b) => b.name === 'persona'));
  const button = form?.buttons.find((b) => b.text === label);
  if (!form || !button?.name || button.value === undefined) throw new Error(`no persona button labelled ${label}`);
  return submit(jar, page, form.action, { [button.name]: button.value }, appBase);
}

export async function signInAsCustomUser(
  jar: CookieJar,
  page: Extract<Landing, { kind: 'page' }>,
  user: { userId: string; displayName: string; citizenRank: number; governmentRank: number; accountAgeDays?: number; verified?: boolean },
  appBase: string,
): Promise<Landing> {
  const form = parseForms(page.html).find((f) => f.buttons.some((b) => b.text === 'Sign in as custom user'));
  if (!form) throw new Error('custom user form not found');
  return submit(jar, page, form.action, {
    userId: user.userId,
    displayName: user.displayName,
    citizenRank: String(user.citizenRank),
    governmentRank: String(user.governmentRank),
    ...(user.accountAgeDays === undefined ? {} : { accountAgeDays: String(user.accountAgeDays) }),
    ...(user.verified ? { verified: 'yes' } : {}),
  }, appBase);
}

/** Response bodies as the tests read them; the assertions are the type check. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** The web app's own calls: same origin, cookie from the jar, CSRF header on unsafe methods. */
export async function appFetch(
  stack: Pick<Stack, 'baseUrl'>,
  jar: CookieJar | null,
  path: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: Json }> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET' && method !== 'HEAD') {
    headers[CSRF_HEADER] = CSRF_HEADER_VALUE;
    headers.origin = stack.baseUrl;
  }
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const url = new URL(path, stack.baseUrl);
  const response = await (jar ? jarFetch(jar, url, { method, headers: { ...headers, ...init.headers }, body: init.body === undefined ? undefined : JSON.stringify(init.body) })
    : fetch(url, { method, headers: { ...headers, ...init.headers }, body: init.body === undefined ? undefined : JSON.stringify(init.body), redirect: 'manual' }));
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body };
}

export interface SignedIn {
  jar: CookieJar;
  userId: string;
  /** The provider's redirect back to the app (…/auth/callback?code&state&iss). */
  callbackUrl: URL;
  authUrl: URL;
}

/** Everything up to the provider's redirect back to the app; the code is not redeemed yet. */
export async function authorizeAs(stack: Stack, label: string | ((jar: CookieJar, page: Extract<Landing, { kind: 'page' }>) => Promise<Landing>), jar = new CookieJar(), query = '') {
  const login = await appFetch(stack, jar, `/api/auth/roblox/login${query}`);
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${JSON.stringify(login.body)}`);
  const authUrl = new URL(login.body.auth_url as string);
  const page = expectProviderPage(await follow(jar, authUrl, stack.baseUrl));
  const landing = typeof label === 'string' ? await pressPersona(jar, page, label, stack.baseUrl) : await label(jar, page);
  return { jar, authUrl, callbackUrl: expectAppLanding(landing) };
}

/** The whole web sign-in: login address, provider page, persona, then the app's callback call. */
export async function signInAs(stack: Stack, label: string, jar = new CookieJar()): Promise<SignedIn> {
  const { authUrl, callbackUrl } = await authorizeAs(stack, label, jar);
  const callback = await appFetch(stack, jar, '/api/auth/roblox/callback', {
    method: 'POST',
    body: { code: callbackUrl.searchParams.get('code'), state: callbackUrl.searchParams.get('state') },
  });
  if (callback.status !== 200) throw new Error(`callback answered ${callback.status}: ${JSON.stringify(callback.body)}`);
  return { jar, userId: callback.body.id as string, callbackUrl, authUrl };
}

