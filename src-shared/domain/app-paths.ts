/**
 * The web app's pages, shared by the renderer (its routes) and the server (which answers 404
 * for any other path, and for a petition that does not exist, while still sending the page shell
 * so the app renders its "Page Not Found" / "Petition Not Found" screen).
 */
export const APP_PATHS = {
  home: '/',
  petitions: '/petitions',
  termPetitions: '/petitions/term/:id',
  petition: '/petition/:id',
  createPetition: '/create-petition',
  privacy: '/privacypolicy',
  termsAndConditions: '/terms-and-conditions',
  termManagement: '/term-management',
  /** The moderation queue (docs/moderation.md), for moderators. */
  moderation: '/moderation',
  myPetitions: '/my-petitions',
  /** The member's account: deleting their data (docs/privacy.md#deleting-your-data). */
  account: '/account',
  notifications: '/notifications',
  statistics: '/statistics',
  authCallback: '/auth/callback',
} as const;

/** A petition id as written in a path: digits only, a positive safe integer; otherwise null. */
export function parsePetitionIdParam(text: string | undefined): number | null {
  if (!text || !/^\d{1,16}$/.test(text)) return null;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export type AppPathMatch = { kind: 'page' } | { kind: 'petition'; id: number | null } | { kind: 'unknown' };

const PATTERNS = Object.values(APP_PATHS).map((pattern) => ({
  pattern,
  regex: new RegExp(`^${pattern.replace(/:[a-z]+/gi, '([^/]+)')}$`),
}));

/** Which page a path shows: a page, a petition (id null when malformed), or none. A trailing slash is ignored. */
export function matchAppPath(pathname: string): AppPathMatch {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const { pattern, regex } of PATTERNS) {
    const match = regex.exec(path);
    if (!match) continue;
    if (pattern === APP_PATHS.petition) return { kind: 'petition', id: parsePetitionIdParam(decodeSafely(match[1]!)) };
    return { kind: 'page' };
  }
  return { kind: 'unknown' };
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
