/**
 * Where the console window may go. It never navigates away from its own origin and never opens
 * windows; links to the outside world open in the system browser, and only https links to hosts on
 * an allow-list (the petitions site, Roblox), so a compromised page cannot launch arbitrary
 * programs or URL schemes through `shell.openExternal`.
 */
export const DEFAULT_EXTERNAL_HOSTS = ['www.roblox.com', 'roblox.com', 'create.roblox.com'] as const;

/** The public petitions site the backend serves (PETITIONS_API_URL), e.g. for "view on the site". */
export function externalHostsFor(apiBaseUrl: string): string[] {
  const hosts = new Set<string>(DEFAULT_EXTERNAL_HOSTS);
  try {
    hosts.add(new URL(apiBaseUrl).host);
  } catch {
    // an invalid base URL adds nothing
  }
  return [...hosts];
}

export function isAllowedExternalUrl(url: string, allowedHosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  const loopback = parsed.hostname === '127.0.0.1' || parsed.hostname === 'localhost' || parsed.hostname === '[::1]';
  // http only for a backend on this machine (development); everything else must be https.
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback)) return false;
  return allowedHosts.includes(parsed.host);
}

/** In-window navigation: only within the console's own origin (a reload or an in-app link). */
export function isAllowedNavigation(url: string, appOrigins: readonly string[]): boolean {
  try {
    const parsed = new URL(url);
    return appOrigins.includes(`${parsed.protocol}//${parsed.host}`);
  } catch {
    return false;
  }
}
