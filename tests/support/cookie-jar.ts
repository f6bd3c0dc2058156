/**
 * Cookies as a browser keeps them, for tests that drive HTTP with fetch: one store per origin,
 * path scoping, replacement, and deletion by Max-Age, Expires or an empty value. Enough of RFC 6265
 * for our app and the local OpenID provider.
 */
export interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

export class CookieJar {
  /** origin → (name, path) → cookie */
  readonly #cookies = new Map<string, Map<string, StoredCookie>>();

  store(requestUrl: URL, response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = requestUrl.pathname.slice(0, Math.max(1, requestUrl.pathname.lastIndexOf('/')));
      let expired = value === '';
      for (const attribute of attributes) {
        const [key = '', attrValue = ''] = attribute.split('=');
        if (key.toLowerCase() === 'path' && attrValue.startsWith('/')) path = attrValue;
        if (key.toLowerCase() === 'expires' && Date.parse(attrValue) <= Date.now()) expired = true;
        if (key.toLowerCase() === 'max-age' && Number(attrValue) <= 0) expired = true;
      }
      const cookies = this.#cookies.get(requestUrl.origin) ?? new Map<string, StoredCookie>();
      const key = `${name}\u0000${path}`;
      if (expired) cookies.delete(key);
      else cookies.set(key, { name, value, path });
      this.#cookies.set(requestUrl.origin, cookies);
    }
  }

  header(url: URL): string {
    const matchesPath = (path: string) =>
      url.pathname === path || (url.pathname.startsWith(path) && (path.endsWith('/') || url.pathname[path.length] === '/'));
    return [...(this.#cookies.get(url.origin)?.values() ?? [])]
      .filter((c) => matchesPath(c.path))
      .sort((a, b) => b.path.length - a.path.length)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  /** Forgets one site's cookies, e.g. to sign in at the provider as someone else. */
  clear(origin: string): void {
    this.#cookies.delete(new URL(origin).origin);
  }

  get(origin: string, name: string): StoredCookie | undefined {
    return [...(this.#cookies.get(new URL(origin).origin)?.values() ?? [])].find((c) => c.name === name);
  }

  names(): string[] {
    return [...this.#cookies.values()].flatMap((cookies) => [...cookies.values()].map((c) => c.name));
  }
}

/** fetch with the jar's cookies, storing what comes back; redirects are left to the caller to follow. */
export async function jarFetch(jar: CookieJar, url: URL, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const cookie = jar.header(url);
  if (cookie) headers.set('cookie', cookie);
  const response = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.store(url, response);
  return response;
}
