/**
 * Sign in with Roblox (docs/api-conventions.md#sessions): the login address, the callback that opens a
 * session, the session and user reads, logout, avatars, and the hook that keeps group ranks fresh before any
 * change.
 *
 * Web flow: GET login → {auth_url}; the provider returns the browser to /auth/callback on the
 * web app, which POSTs {code, state} to the callback and receives an HttpOnly session cookie.
 *
 * Desktop console flow (RFC 8252 loopback): GET login?client=console&redirect_uri=http://127.0.0.1:<port>/…
 * &console_challenge=<BASE64URL(SHA-256(verifier))>; the system browser returns to the console's
 * loopback listener, which POSTs {code, state} to the callback with the header
 * `x-petitions-console-verifier: <verifier>` and receives {id, session_token, token_type: 'Bearer',
 * expires_at} in the body (no cookie); it then calls the API with `Authorization: Bearer <token>`.
 * The verifier means a program that merely intercepts the loopback redirect cannot redeem it.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { CONSOLE_VERIFIER_HEADER } from '../../src-shared/console/sign-in.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import {
  CallbackBody,
  CallbackResponseSchema,
  LoginResponseSchema,
  MessageSchema,
  SessionSchema,
  UserId,
  UserSchema,
} from '../../src-shared/domain/schemas.ts';
import type { AppContext } from '../context.ts';
import { API_TAGS } from '../http/openapi-document.ts';
import { HttpError } from '../http/problem.ts';
import { problems } from '../http/route-contract.ts';
import { PUBLIC, SIGNED_IN } from '../http/route-access.ts';
import { clearSessionCookie, setSessionCookie } from '../http/viewer.ts';
import { removeSessionDevices } from '../push/subscriptions.ts';
import { officeRank } from '../../src-shared/rules/roles.ts';
import { registerAvatarRoutes } from './avatar-routes.ts';
import { createGroupRankService } from './group-ranks.ts';
import { createLoginAttemptStore } from './login-attempts.ts';
import { createOidcClient } from './oidc-client.ts';
import { createRankFreshness } from './rank-freshness.ts';
import { loopbackRedirectUri, safeReturnTo } from './redirect-targets.ts';
import { createSessionTokenKeeper, revokeInTime } from './session-tokens.ts';
import { registerAccountDeletionRoutes } from '../privacy/account-deletion-routes.ts';
import { registerRetentionRoutes } from '../privacy/retention-routes.ts';
import { createSignIn, WEB_CALLBACK_PATH } from './sign-in.ts';
import { createTokenVault } from './token-vault.ts';

export { CONSOLE_VERIFIER_HEADER };
const HOUSEKEEPING_INTERVAL_MS = 15 * 60 * 1000;

const LoginQuery = z.strictObject({
  returnTo: z.string().max(2048).optional(),
  client: z.enum(['web', 'console']).optional(),
  redirect_uri: z.string().max(2048).optional(),
  console_challenge: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'console_challenge must be the base64url SHA-256 of the console verifier')
    .optional(),
});

const CallbackHeaders = z.looseObject({
  [CONSOLE_VERIFIER_HEADER]: z
    .string()
    .regex(/^[A-Za-z0-9._~-]{43,128}$/)
    .optional()
    .describe('Desktop console only: the verifier whose SHA-256 it sent as console_challenge'),
});

const CallbackResponse = CallbackResponseSchema.extend({
  returnTo: z.string().nullable().optional().describe('Web: the same-origin path given to login, if any'),
  session_token: z.string().optional().describe('Desktop console only: the bearer token of the new session'),
  token_type: z.literal('Bearer').optional(),
  expires_at: z.string().optional().describe('Desktop console only: when the session ends at the latest'),
});

const UserParams = z.strictObject({ userId: UserId });

function clientSettings(context: AppContext) {
  const { clientId, clientSecret, issuer } = context.config.roblox;
  const publicBaseUrl = context.config.publicBaseUrl ?? `http://localhost:${context.config.port}`;
  return { clientId, clientSecret, issuer, publicBaseUrl: publicBaseUrl.replace(/\/+$/, '') };
}

export async function registerAuthRoutes(app: FastifyInstance, context: AppContext): Promise<void> {
  const settings = clientSettings(context);
  const configured = Boolean(settings.clientId && settings.clientSecret);
  const oidc = createOidcClient({
    issuer: settings.issuer,
    clientId: settings.clientId ?? 'not-configured',
    clientSecret: settings.clientSecret ?? 'not-configured',
    allowHttp: context.config.env !== 'production' && settings.issuer.startsWith('http://'),
    requestVerification: context.config.roblox.requestVerification,
  });
  const vault = createTokenVault(context.config.sessionSecret);
  const keeper = createSessionTokenKeeper({ sessions: context.sessions, vault, oidc, now: context.now });
  const groupRanks = createGroupRankService(
    {
      apiBase: context.config.roblox.apiBase,
      legacyGroupsBase: context.config.roblox.legacyGroupsBase,
      citizenGroupId: context.config.roblox.citizenGroupId,
      governmentGroupId: context.config.roblox.governmentGroupId,
      log: (message, details) => app.log.warn(details ?? {}, message),
    },
    (rank) => officeRank(rank) !== 0,
  );
  const attempts = createLoginAttemptStore(context.db);
  const signIn = createSignIn({
    context,
    oidc,
    attempts,
    keeper,
    groupRanks,
    webRedirectUri: `${settings.publicBaseUrl}${WEB_CALLBACK_PATH}`,
    log: app.log,
  });

  createRankFreshness({ context, keeper, groupRanks }).register(app);
  registerAvatarRoutes(app, context);
  registerAccountDeletionRoutes(app, context, keeper);
  registerRetentionRoutes(app, context);

  if (context.runBackgroundJobs) {
    const timer = setInterval(() => {
      const now = context.now();
      void Promise.all([attempts.purgeExpired(now), context.sessions.purgeExpired(now)]).catch((error: unknown) =>
        app.log.warn({ err: error }, 'could not purge expired sign-in attempts and sessions'),
      );
    }, HOUSEKEEPING_INTERVAL_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }

  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/auth/roblox/login',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'startSignIn',
        tags: [API_TAGS.signIn.name],
        summary: 'Start signing in with Roblox: returns the provider address to send the browser to',
        querystring: LoginQuery,
        response: { 200: LoginResponseSchema, ...problems(400, 429, 502, 503) },
      },
    },
    async (request) => {
      if (!configured) throw new HttpError(503, ERRORS.authenticationServerError);
      // Per client address, never one total that a single client could fill (docs/limits.md#rate-limits).
      await app.rateLimits.take('signIn', request);
      const query = request.query;
      if (query.client === 'console') {
        const redirectUri = loopbackRedirectUri(query.redirect_uri);
        if (!redirectUri) throw new HttpError(400, 'redirect_uri must be a loopback address such as http://127.0.0.1:<port>/callback');
        if (!query.console_challenge) throw new HttpError(400, 'console_challenge is required for the console');
        const url = await signIn.start({ client: 'console', redirectUri, consoleChallenge: query.console_challenge });
        return { auth_url: url.href };
      }
      if (query.redirect_uri !== undefined || query.console_challenge !== undefined) {
        throw new HttpError(400, 'redirect_uri and console_challenge are only for client=console');
      }
      // An unsafe returnTo is dropped rather than refused: the user still gets signed in.
      const url = await signIn.start({ client: 'web', returnTo: safeReturnTo(query.returnTo) });
      return { auth_url: url.href };
    },
  );

  typed.post(
    '/api/auth/roblox/callback',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'finishSignIn',
        tags: [API_TAGS.signIn.name],
        summary: 'Finish signing in: exchanges the code and opens a session (cookie for the web, token for the console)',
        body: CallbackBody,
        headers: CallbackHeaders,
        response: { 200: CallbackResponse, ...problems(401, 429, 502, 503) },
      },
    },
    async (request, reply) => {
      if (!configured) throw new HttpError(503, ERRORS.authenticationServerError);
      const result = await signIn.complete({
        code: request.body.code,
        state: request.body.state,
        consoleVerifier: request.headers[CONSOLE_VERIFIER_HEADER],
        previousSessionIdHash: request.viewerFor(PUBLIC)?.session.id_hash ?? null,
      });
      request.log.info(
        { userId: result.user.id, client: result.clientKind, groups: result.ranks.source, groupsUnavailable: result.ranks.groupsUnavailable },
        'signed in',
      );
      if (result.clientKind === 'console') {
        return { id: result.user.id, session_token: result.sessionToken, token_type: 'Bearer' as const, expires_at: result.sessionExpiresAt };
      }
      setSessionCookie(reply, context.cookie, result.sessionToken);
      return { id: result.user.id, returnTo: result.returnTo };
    },
  );

  typed.get(
    '/api/auth/session',
    {
      config: { access: PUBLIC },
      schema: {
        operationId: 'getSession',
        tags: [API_TAGS.signIn.name],
        summary: 'Who is signed in (user is null for visitors); always 200',
        response: { 200: SessionSchema },
      },
    },
    async (request) => ({ user: request.viewerFor(PUBLIC)?.user ?? null }),
  );

  typed.get(
    '/api/auth/roblox/user/:userId',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'getSignedInUser',
        tags: [API_TAGS.signIn.name],
        summary: 'The signed-in user, with ranks and rights; only your own id',
        params: UserParams,
        response: { 200: UserSchema, ...problems(403) },
      },
    },
    async (request) => {
      const viewer = request.viewerFor(SIGNED_IN);
      if (request.params.userId !== viewer.user.id) throw new HttpError(403, ERRORS.otherUser);
      return viewer.user;
    },
  );

  typed.post(
    '/api/auth/roblox/logout/:userId',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'signOut',
        tags: [API_TAGS.signIn.name],
        summary: 'Sign out: ends the session and revokes the Roblox authorization',
        params: UserParams,
        response: { 200: MessageSchema, ...problems(403) },
      },
    },
    async (request, reply) => {
      const viewer = request.viewerFor(SIGNED_IN);
      if (request.params.userId !== viewer.user.id) throw new HttpError(403, ERRORS.otherUser);
      const idHash = viewer.session.id_hash;
      try {
        await revokeInTime(keeper, idHash);
      } catch (error) {
        // The session ends here regardless; an unrevoked Roblox token dies on its own within 90 days.
        request.log.warn({ err: error, userId: viewer.user.id }, 'could not revoke the Roblox refresh token');
      }
      await context.sessions.destroy(idHash);
      // Devices registered for web push in this session stop receiving this member's news (docs/notifications.md#web-push).
      await removeSessionDevices(context.db, idHash, context.now());
      request.viewer = null;
      if (!viewer.viaBearer) clearSessionCookie(reply, context.cookie);
      return { message: 'Signed out' };
    },
  );
}
