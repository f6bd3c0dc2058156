/**
 * The two halves of signing in: starting an authorization request (state, nonce and PKCE verifier
 * kept server-side) and completing it (code exchange, ID token check, profile, group ranks, a new
 * session holding the sealed tokens).
 */
import { createHash, randomBytes } from 'node:crypto';
import { randomNonce, randomPKCECodeVerifier, randomState } from 'openid-client';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import { SESSION_ABSOLUTE_MS, type ClientKind } from '../sessions/session-service.ts';
import type { UserProfile } from '../users/user-repository.ts';
import { accountSignalsFromClaims } from './account-signals.ts';
import type { GroupRankService, GroupRanks } from './group-ranks.ts';
import type { ConsoleReturn, LoginAttemptStore } from './login-attempts.ts';
import type { OidcClient } from './oidc-client.ts';
import { classifyProviderError } from './provider-errors.ts';
import type { SessionTokenKeeper } from './session-tokens.ts';
import { tokensFromResponse } from './session-tokens.ts';

export const WEB_CALLBACK_PATH = '/auth/callback';

export type LoginStart =
  | { client: 'web'; returnTo: string | null }
  | { client: 'console'; redirectUri: string; consoleChallenge: string };

export interface CompletedSignIn {
  user: UserRow;
  sessionToken: string;
  clientKind: ClientKind;
  returnTo: string | null;
  sessionExpiresAt: string;
  ranks: GroupRanks;
}

export interface SignInDeps {
  context: AppContext;
  oidc: OidcClient;
  attempts: LoginAttemptStore;
  keeper: SessionTokenKeeper;
  groupRanks: GroupRankService;
  webRedirectUri: string;
  log: { warn(details: Record<string, unknown>, message: string): void; error(details: Record<string, unknown>, message: string): void };
}

/** The console proves at callback time that it is the program that started the sign-in. */
export function consoleChallengeFor(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** Roblox claims → our user. `sub` is the only stable key; names are display data refreshed at each sign-in. */
export function profileFromClaims(subject: string, claims: Record<string, unknown>, ranks: GroupRanks): UserProfile {
  const username = text(claims.preferred_username) ?? `user${subject}`;
  const picture = text(claims.picture);
  return {
    id: subject,
    username,
    displayName: text(claims.name) ?? text(claims.nickname) ?? username,
    avatarUrl: picture && /^https?:\/\//i.test(picture) ? picture : null,
    citizenRank: ranks.citizenRank,
    governmentRank: ranks.governmentRank,
    groupsUnavailable: ranks.groupsUnavailable,
  };
}

function providerFailure(error: unknown, deps: SignInDeps, stage: string): HttpError {
  if (classifyProviderError(error) === 'rejected') {
    deps.log.warn({ err: error, stage }, 'sign-in refused');
    return new HttpError(400, ERRORS.invalidAuthorizationCode);
  }
  deps.log.error({ err: error, stage }, 'identity provider unavailable during sign-in');
  return new HttpError(502, ERRORS.authenticationServerError);
}

export function createSignIn(deps: SignInDeps) {
  const { context, oidc, attempts, keeper, groupRanks } = deps;

  return {
    async start(login: LoginStart): Promise<URL> {
      const now = context.now();
      // No total of open attempts: one client could fill it and lock everyone out. The rate limit per
      // client address (auth-routes.ts) bounds what each client adds; expired attempts go here.
      await attempts.purgeExpired(now);
      const state = randomState();
      const nonce = randomNonce();
      const codeVerifier = randomPKCECodeVerifier();
      const redirectUri = login.client === 'console' ? login.redirectUri : deps.webRedirectUri;
      let url: URL;
      try {
        url = await oidc.authorizationUrl({ redirectUri, state, nonce, codeVerifier });
      } catch (error) {
        deps.log.error({ err: error }, 'identity provider discovery failed');
        throw new HttpError(502, ERRORS.authenticationServerError);
      }
      const consoleReturn: ConsoleReturn | null =
        login.client === 'console' ? { redirectUri: login.redirectUri, consoleChallenge: login.consoleChallenge } : null;
      await attempts.create(
        {
          state,
          nonce,
          codeVerifier,
          clientKind: login.client,
          returnTo: consoleReturn ? JSON.stringify(consoleReturn) : login.client === 'web' ? login.returnTo : null,
        },
        now,
      );
      return url;
    },

    async complete(input: {
      code: string;
      state: string;
      consoleVerifier: string | undefined;
      /** The session the request carried, ended here: a new sign-in always gets a new session id. */
      previousSessionIdHash: string | null;
    }): Promise<CompletedSignIn> {
      const attempt = await attempts.take(input.state, context.now());
      if (attempt.status === 'unknown') throw new HttpError(400, ERRORS.invalidAuthorizationCode);
      if (attempt.status === 'expired') throw new HttpError(401, ERRORS.authenticationExpired);

      let redirectUri = deps.webRedirectUri;
      let returnTo = attempt.returnTo;
      if (attempt.clientKind === 'console') {
        const stored = JSON.parse(attempt.returnTo ?? '{}') as Partial<ConsoleReturn>;
        if (!stored.redirectUri || !stored.consoleChallenge) throw new HttpError(400, ERRORS.invalidAuthorizationCode);
        if (!input.consoleVerifier || consoleChallengeFor(input.consoleVerifier) !== stored.consoleChallenge) {
          throw new HttpError(400, ERRORS.invalidAuthorizationCode);
        }
        redirectUri = stored.redirectUri;
        returnTo = null;
      }

      let exchanged: Awaited<ReturnType<OidcClient['exchangeCode']>>;
      try {
        exchanged = await oidc.exchangeCode({
          code: input.code,
          state: input.state,
          redirectUri,
          nonce: attempt.nonce,
          codeVerifier: attempt.codeVerifier,
        });
      } catch (error) {
        throw providerFailure(error, deps, 'code exchange');
      }
      const { tokens, subject } = exchanged;

      // `picture` only comes from userinfo; the ID token's profile claims are the fallback.
      let claims = exchanged.claims;
      try {
        claims = { ...claims, ...(await oidc.userInfo(tokens.access_token, subject)) };
      } catch (error) {
        deps.log.warn({ err: error }, 'userinfo failed; using the ID token claims');
      }

      const ranks = await groupRanks.lookup(subject, tokens.access_token);
      const now = context.now();
      // The account signals are refreshed at every sign-in (docs/integrity.md#account-signals).
      const user = await context.users.upsert({ ...profileFromClaims(subject, claims, ranks), ...accountSignalsFromClaims(claims, now) }, now);

      if (input.previousSessionIdHash) await context.sessions.destroy(input.previousSessionIdHash);
      const { token, idHash } = await context.sessions.create(subject, attempt.clientKind, now);
      await keeper.store(idHash, tokensFromResponse(tokens, now));
      return {
        user,
        sessionToken: token,
        clientKind: attempt.clientKind,
        returnTo,
        sessionExpiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS).toISOString(),
        ranks,
      };
    },
  };
}

/** A fresh verifier for tests and for the console's own proof (43+ characters of base64url). */
export function randomConsoleVerifier(): string {
  return randomBytes(32).toString('base64url');
}

export type SignIn = ReturnType<typeof createSignIn>;
