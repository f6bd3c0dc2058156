/**
 * What the console and the backend agree on for the desktop sign-in (RFC 8252 loopback flow,
 * src-server/auth/auth-routes.ts).
 */

/** The console proves at callback time, with this header, that it started the sign-in. */
export const CONSOLE_VERIFIER_HEADER = 'x-petitions-console-verifier';

/**
 * The loopback address the console listens on for the provider's redirect. Fixed, because Roblox
 * (and the development provider) match redirect addresses exactly, port included; register this in
 * the Roblox dashboard. Override with CONSOLE_REDIRECT_URI when it must differ.
 */
export const CONSOLE_LOOPBACK_REDIRECT_URI = 'http://127.0.0.1:47615/callback';
