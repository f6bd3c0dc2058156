/**
 * Keeps each session's Roblox tokens: stores them sealed, hands out a valid access token
 * (refreshing when needed) and revokes them at logout.
 *
 * Roblox refresh tokens are single use, so two concurrent refreshes for one session would make
 * the loser fail with invalid_grant and lose the session. Refreshes therefore run single-flight
 * per session within this process, and across processes (many nodes on PostgreSQL) under the
 * session's lock: whoever gets it second reads the tokens the first stored and uses those.
 */
import type { SessionService, SessionTokenStore } from '../sessions/session-service.ts';
import type { OidcClient, TokenResponse } from './oidc-client.ts';
import { isInvalidGrant } from './provider-errors.ts';
import type { StoredTokens, TokenVault } from './token-vault.ts';

/** Refresh a little early so a token does not expire between our check and Roblox's. */
const EXPIRY_MARGIN_MS = 60_000;
/** Roblox access tokens live 15 minutes; assume less if a response ever omits expires_in. */
const DEFAULT_ACCESS_LIFETIME_S = 600;

/** The session can no longer act for the user at Roblox: it must end and the user sign in again. */
export class SessionEndedError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'SessionEndedError';
  }
}

export function tokensFromResponse(response: TokenResponse, now: Date, previousRefreshToken: string | null = null): StoredTokens {
  const lifetime = typeof response.expires_in === 'number' ? response.expires_in : DEFAULT_ACCESS_LIFETIME_S;
  return {
    access_token: response.access_token,
    access_expires_at: now.getTime() + lifetime * 1000,
    refresh_token: response.refresh_token ?? previousRefreshToken,
  };
}

export function createSessionTokenKeeper(deps: {
  sessions: SessionService;
  vault: TokenVault;
  oidc: OidcClient;
  now: () => Date;
}) {
  const { sessions, vault, oidc, now } = deps;
  const inFlight = new Map<string, Promise<string | null>>();

  async function load(idHash: string, read: SessionTokenStore['read'] = () => sessions.readTokens(idHash)): Promise<StoredTokens | null> {
    const sealed = await read();
    if (sealed === undefined) throw new SessionEndedError('session no longer exists');
    // Sessions created in-process (test harnesses, the benchmark) never held provider tokens.
    if (sealed === null) return null;
    const tokens = vault.open(sealed, idHash);
    // Sealed with a key we no longer have (e.g. a development restart without SESSION_SECRET).
    if (!tokens) throw new SessionEndedError('stored tokens cannot be read');
    return tokens;
  }

  const isFresh = (tokens: StoredTokens) => tokens.access_expires_at - now().getTime() > EXPIRY_MARGIN_MS;

  async function refreshNow(idHash: string): Promise<string | null> {
    // Most calls find a valid token and take no lock.
    const seen = await load(idHash);
    if (!seen) return null;
    if (isFresh(seen)) return seen.access_token;
    return sessions.withTokensHeld(idHash, (store) => refreshHeld(idHash, store));
  }

  async function refreshHeld(idHash: string, store: SessionTokenStore): Promise<string | null> {
    // Read again under the lock: another node may have refreshed while we waited for it.
    const tokens = await load(idHash, store.read);
    if (!tokens) return null;
    if (isFresh(tokens)) return tokens.access_token;
    if (!tokens.refresh_token) throw new SessionEndedError('access token expired and no refresh token is held');
    let response: TokenResponse;
    try {
      response = await oidc.refresh(tokens.refresh_token);
    } catch (error) {
      if (isInvalidGrant(error)) throw new SessionEndedError('refresh token revoked, expired or already used');
      throw error;
    }
    const next = tokensFromResponse(response, now(), tokens.refresh_token);
    // Persist the rotated token before anyone can use the old one (which is now dead at Roblox).
    await store.write(vault.seal(next, idHash));
    return next.access_token;
  }

  return {
    async store(idHash: string, tokens: StoredTokens): Promise<void> {
      await sessions.setTokens(idHash, vault.seal(tokens, idHash));
    },

    /**
     * A currently valid access token for the session, refreshed if needed; null when the session
     * never held provider tokens. Throws SessionEndedError when the session must end.
     */
    freshAccessToken(idHash: string): Promise<string | null> {
      const running = inFlight.get(idHash);
      if (running) return running;
      const flight = refreshNow(idHash).finally(() => inFlight.delete(idHash));
      inFlight.set(idHash, flight);
      return flight;
    },

    /** Revokes the session's authorization at the provider. Best effort: logout must not hang on it. */
    async revoke(idHash: string): Promise<boolean> {
      await inFlight.get(idHash)?.catch(() => undefined);
      let tokens: StoredTokens | null;
      try {
        tokens = await load(idHash);
      } catch {
        return false;
      }
      if (!tokens?.refresh_token) return false;
      await oidc.revoke(tokens.refresh_token);
      return true;
    },
  };
}

export type SessionTokenKeeper = ReturnType<typeof createSessionTokenKeeper>;

/** Signing out must not hang on the provider: a revocation that takes longer is given up. */
export const REVOCATION_TIMEOUT_MS = 5_000;

/** keeper.revoke within REVOCATION_TIMEOUT_MS; throws when it failed or took longer (the caller ends the session regardless). */
export function revokeInTime(keeper: SessionTokenKeeper, idHash: string): Promise<boolean> {
  return Promise.race([
    keeper.revoke(idHash),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('revocation timed out')), REVOCATION_TIMEOUT_MS).unref()),
  ]);
}
