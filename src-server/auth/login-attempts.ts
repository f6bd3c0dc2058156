/**
 * Sign-in attempts in flight (`login_attempts`): the PKCE verifier, state and nonce of each
 * authorization request live only on the server, for about ten minutes, and are usable once.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { ClientKind } from '../sessions/session-service.ts';

export const LOGIN_ATTEMPT_TTL_MS = 10 * 60 * 1000;

export interface NewLoginAttempt {
  state: string;
  codeVerifier: string;
  nonce: string;
  clientKind: ClientKind;
  /**
   * Web: the same-origin path to show after sign-in. Console: the JSON of {@link ConsoleReturn},
   * i.e. the loopback address the browser returns to and the console's own PKCE challenge.
   */
  returnTo: string | null;
}

export interface ConsoleReturn {
  redirectUri: string;
  consoleChallenge: string;
}

export type TakenAttempt =
  | { status: 'valid'; clientKind: ClientKind; codeVerifier: string; nonce: string; returnTo: string | null }
  | { status: 'expired' }
  | { status: 'unknown' };

export function createLoginAttemptStore(db: Kysely<Database>) {
  return {
    async create(attempt: NewLoginAttempt, now: Date): Promise<void> {
      await db
        .insertInto('login_attempts')
        .values({
          state: attempt.state,
          code_verifier: attempt.codeVerifier,
          nonce: attempt.nonce,
          return_to: attempt.returnTo,
          client_kind: attempt.clientKind,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + LOGIN_ATTEMPT_TTL_MS).toISOString(),
        })
        .execute();
    },

    /** Deletes and returns the attempt in one statement, so two callbacks cannot both use it. */
    async take(state: string, now: Date): Promise<TakenAttempt> {
      const row = await db.deleteFrom('login_attempts').where('state', '=', state).returningAll().executeTakeFirst();
      if (!row) return { status: 'unknown' };
      if (row.expires_at <= now.toISOString()) return { status: 'expired' };
      return {
        status: 'valid',
        clientKind: row.client_kind === 'console' ? 'console' : 'web',
        codeVerifier: row.code_verifier,
        nonce: row.nonce,
        returnTo: row.return_to,
      };
    },

    async purgeExpired(now: Date): Promise<number> {
      const result = await db.deleteFrom('login_attempts').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type LoginAttemptStore = ReturnType<typeof createLoginAttemptStore>;
