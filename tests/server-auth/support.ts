/** Helpers shared by the sign-in tests: reading a session's sealed tokens, and a relying party of our own. */
import { allowInsecureRequests, discovery, type Configuration } from 'openid-client';
import { createTokenVault, type StoredTokens } from '../../src-server/auth/token-vault.ts';
import { hashToken } from '../../src-server/sessions/session-service.ts';
import type { CookieJar } from './browser.ts';
import type { Stack } from '../support/stack.ts';

export function sessionCookie(stack: Stack, jar: CookieJar): string | undefined {
  return jar.get(new URL(stack.baseUrl).origin, stack.context.cookie.name)?.value;
}

export async function sessionRow(stack: Stack, jar: CookieJar) {
  const token = sessionCookie(stack, jar);
  if (!token) return undefined;
  return stack.context.db.selectFrom('sessions').selectAll().where('id_hash', '=', hashToken(token)).executeTakeFirst();
}

/** Opens the sealed tokens with the same secret the server uses, as only the server could. */
export async function storedTokens(stack: Stack, jar: CookieJar): Promise<StoredTokens | null> {
  const row = await sessionRow(stack, jar);
  if (!row?.tokens) return null;
  return createTokenVault(stack.context.config.sessionSecret).open(row.tokens, row.id_hash);
}

/** The same client the server is, to try a refresh token the way the server would. */
export function serverClient(stack: Stack): Promise<Configuration> {
  const { issuer, clientId, clientSecret } = stack.context.config.roblox;
  return discovery(new URL(issuer), clientId ?? '', clientSecret ?? '', undefined, { execute: [allowInsecureRequests] });
}
