/**
 * The server's OAuth 2.0 / OpenID Connect client for Roblox (or the local stand-in), built on
 * openid-client v6. Discovery happens on first use and is retried after a failure, so a Roblox
 * outage at boot does not keep the server down.
 */
import * as client from 'openid-client';

export const SCOPES = 'openid profile group:read';
/**
 * Roblox lists a `verification` scope and a `verified` claim; third-party apps may not be granted it,
 * so it is asked for only when configured (ROBLOX_VERIFICATION_SCOPE; docs/integrity.md#account-signals).
 */
export const VERIFICATION_SCOPE = 'verification';
/** Below openid-client's 30 s default: a user is waiting on every one of these calls. */
const REQUEST_TIMEOUT_SECONDS = 10;
/** Roblox documents none; a minute absorbs ordinary clock drift between us and them. */
const CLOCK_TOLERANCE_SECONDS = 60;

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Plain-http issuers are only allowed for the local development provider. */
  allowHttp: boolean;
  /** Also ask for the `verified` claim. */
  requestVerification?: boolean;
}

export interface AuthorizationRequest {
  redirectUri: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface CodeExchange extends AuthorizationRequest {
  code: string;
}

/** What a code exchange and a refresh both answer: the token endpoint's response and openid-client's helpers (`claims()`). */
export type TokenResponse = client.TokenEndpointResponse & client.TokenEndpointResponseHelpers;

export interface OidcClient {
  authorizationUrl(request: AuthorizationRequest): Promise<URL>;
  /** Exchanges the code and validates the ID token (signature, iss, aud, exp, nonce). */
  exchangeCode(exchange: CodeExchange): Promise<{ tokens: TokenResponse; subject: string; claims: Record<string, unknown> }>;
  userInfo(accessToken: string, subject: string): Promise<Record<string, unknown>>;
  refresh(refreshToken: string): Promise<TokenResponse>;
  revoke(refreshToken: string): Promise<void>;
}

export function createOidcClient(settings: OidcSettings): OidcClient {
  let discovered: Promise<client.Configuration> | null = null;

  function configuration(): Promise<client.Configuration> {
    if (!discovered) {
      discovered = client
        .discovery(
          new URL(settings.issuer),
          settings.clientId,
          { client_secret: settings.clientSecret, [client.clockTolerance]: CLOCK_TOLERANCE_SECONDS },
          client.ClientSecretPost(settings.clientSecret),
          { execute: settings.allowHttp ? [client.allowInsecureRequests] : [], timeout: REQUEST_TIMEOUT_SECONDS },
        )
        .then((config) => {
          config.timeout = REQUEST_TIMEOUT_SECONDS;
          return config;
        })
        .catch((error: unknown) => {
          discovered = null;
          throw error;
        });
    }
    return discovered;
  }

  return {
    async authorizationUrl(request) {
      const config = await configuration();
      // PKCE is always sent: Roblox supports it but its discovery document does not say so.
      return client.buildAuthorizationUrl(config, {
        redirect_uri: request.redirectUri,
        scope: settings.requestVerification ? `${SCOPES} ${VERIFICATION_SCOPE}` : SCOPES,
        code_challenge: await client.calculatePKCECodeChallenge(request.codeVerifier),
        code_challenge_method: 'S256',
        state: request.state,
        nonce: request.nonce,
      });
    },

    async exchangeCode(exchange) {
      const config = await configuration();
      // The web app forwards only code and state; we rebuild the redirect the provider made.
      // openid-client derives the token request's redirect_uri from this URL, minus the query.
      const callbackUrl = new URL(exchange.redirectUri);
      callbackUrl.searchParams.set('code', exchange.code);
      callbackUrl.searchParams.set('state', exchange.state);
      // RFC 9207 guards against mix-ups between several providers; we talk to exactly one, so the
      // iss the browser dropped on the way is restored from our own discovery result.
      const metadata = config.serverMetadata();
      if (metadata.authorization_response_iss_parameter_supported) callbackUrl.searchParams.set('iss', metadata.issuer);
      const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: exchange.codeVerifier,
        expectedState: exchange.state,
        expectedNonce: exchange.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims?.sub) {
        const error = new client.ClientError('the ID token has no subject');
        error.code = 'OAUTH_INVALID_RESPONSE';
        throw error;
      }
      return { tokens, subject: claims.sub, claims: claims as Record<string, unknown> };
    },

    async userInfo(accessToken, subject) {
      const config = await configuration();
      return (await client.fetchUserInfo(config, accessToken, subject)) as Record<string, unknown>;
    },

    async refresh(refreshToken) {
      return client.refreshTokenGrant(await configuration(), refreshToken);
    },

    async revoke(refreshToken) {
      // Revoking the refresh token ends the whole authorization at Roblox.
      await client.tokenRevocation(await configuration(), refreshToken, { token_type_hint: 'refresh_token' });
    },
  };
}
