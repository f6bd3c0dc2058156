import { interactionPolicy, type Configuration, type JWK, type KoaContextWithOIDC } from 'oidc-provider';
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';
import type { Directory, DevUser } from './directory.ts';
import { escapeHtml, pageLayout } from './http-util.ts';

export interface DevClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
}

export const DEV_SCOPES = ['openid', 'profile', 'group:read', 'verification'] as const;

/** Same paths as https://apis.roblox.com/oauth/… so only the issuer URL differs between dev and prod. */
export const ROBLOX_ROUTES = {
  authorization: '/v1/authorize',
  token: '/v1/token',
  userinfo: '/v1/userinfo',
  jwks: '/v1/certs',
  revocation: '/v1/token/revoke',
  introspection: '/v1/token/introspect',
} as const;

const CLOCK_TOLERANCE_SECONDS = 15;
const DAY = 24 * 60 * 60;

/** The claims Roblox returns for the profile scope (`picture` may be null, as on Roblox), and `verified` for the verification scope. */
export function profileClaims(user: DevUser, apiBase: string) {
  return {
    sub: user.id,
    name: user.displayName,
    nickname: user.displayName,
    preferred_username: user.username,
    created_at: user.createdAt,
    profile: `${apiBase}/users/${user.id}/profile`,
    picture: user.picturePath === null ? null : `${apiBase}${user.picturePath}`,
    verified: user.verified,
  };
}

// Roblox accepts prompt=select_account (better-auth sends "select_account consent"); the default
// policy would reject it with invalid_request. As its own prompt it shows the persona picker even
// when a provider session exists, which is also how a developer switches persona.
function interactionPolicyWithSelectAccount() {
  const policy = interactionPolicy.base();
  policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }), 0);
  return policy;
}

export function buildProviderConfiguration(deps: {
  clients: readonly DevClient[];
  directory: Directory;
  apiBase: string;
  signingKey: JWK;
  cookieKeys: string[];
}): Configuration {
  const { directory, apiBase } = deps;

  return {
    adapter: createMemoryAdapter(CLOCK_TOLERANCE_SECONDS),
    clockTolerance: CLOCK_TOLERANCE_SECONDS,
    clients: deps.clients.map((c) => ({
      client_id: c.client_id,
      client_secret: c.client_secret,
      redirect_uris: c.redirect_uris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // Registered as post, but oidc-provider accepts basic for any secret-based client too;
      // both are advertised, like Roblox.
      token_endpoint_auth_method: 'client_secret_post',
      id_token_signed_response_alg: 'ES256',
    })),
    clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
    // Only our server talks to the provider back-channel; browsers never need CORS here.
    clientBasedCORS: () => false,
    jwks: { keys: [deps.signingKey] },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    cookies: { keys: deps.cookieKeys },
    routes: ROBLOX_ROUTES,
    responseTypes: ['code'],
    scopes: [...DEV_SCOPES],
    claims: {
      openid: ['sub'],
      profile: ['name', 'nickname', 'preferred_username', 'created_at', 'profile', 'picture'],
      // Roblox lists the scope and the claim; the server asks for it only when configured to.
      verification: ['verified'],
    },
    // Roblox puts the profile claims into the ID token as well, so the server may rely on that.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    ttl: {
      AuthorizationCode: 60,
      AccessToken: 900,
      IdToken: 36_000,
      RefreshToken: 90 * DAY,
      // A grant outliving its refresh tokens keeps rotated tokens valid for their full 90 days.
      Grant: 90 * DAY,
      Session: 14 * DAY,
      Interaction: 10 * 60,
    },
    // Roblox issues (and rotates) a refresh token on every code exchange without offline_access.
    issueRefreshToken: (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.kind === 'AuthorizationCode',
    rotateRefreshToken: true,
    // Roblox tokens are not tied to the browser session at roblox.com.
    expiresWithSession: () => false,
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: true },
      revocation: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      introspection: {
        enabled: true,
        allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId,
      },
      // Roblox offers none of these; leaving them on would let the server depend on them.
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      resourceIndicators: { enabled: false },
    },
    interactions: {
      policy: interactionPolicyWithSelectAccount(),
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
    },
    findAccount: (_ctx, sub) => {
      const user = directory.findUser(sub);
      if (!user) return undefined;
      return {
        accountId: user.id,
        // oidc-provider filters this down to what the granted scopes allow.
        claims: () => profileClaims(user, apiBase),
      };
    },
    // Replaces the default page, which pulls a Google font (no external resources here).
    renderError: (ctx: KoaContextWithOIDC, out) => {
      ctx.type = 'html';
      ctx.body = pageLayout(
        'Error — development provider',
        `<h1>Sign-in error</h1>
<p>The development OpenID provider could not complete the request.</p>
<dl>${Object.entries(out)
          .map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(value)}</dd>`)
          .join('')}</dl>`,
      );
    },
  };
}
