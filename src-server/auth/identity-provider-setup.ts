/**
 * Decides, before anything else starts, who the server signs users in with:
 * - a configured Roblox OAuth client (ROBLOX_CLIENT_ID/SECRET), checked for completeness; or
 * - outside production, with no client configured, the development sign-in the composition root
 *   hands in (dev/dev-sign-in.ts: the local OpenID provider), so a newcomer can try every role
 *   without Roblox credentials;
 * - in production without a client: a start-up failure that says what to set.
 */
import type { ServerConfig } from '../config.ts';

export interface PreparedIdentityProvider {
  config: ServerConfig;
  /** One line for the log once the server listens: where to go to sign in. */
  startupMessage: string;
  close(): Promise<void>;
}

/** Starts a sign-in for development and wires it into the configuration (given the site's address). */
export type DevelopmentSignIn = (
  config: ServerConfig,
  baseUrl: string,
  log?: (message: string) => void,
) => Promise<PreparedIdentityProvider>;

export class IdentityConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IdentityConfigurationError';
  }
}

function defaultPublicBaseUrl(config: ServerConfig): string | undefined {
  if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/+$/, '');
  return config.env === 'production' ? undefined : `http://localhost:${config.port}`;
}

function checkRobloxConfig(config: ServerConfig): void {
  const missing: string[] = [];
  if (!config.roblox.clientId) missing.push('ROBLOX_CLIENT_ID');
  if (!config.roblox.clientSecret) missing.push('ROBLOX_CLIENT_SECRET');
  if (config.env === 'production') {
    if (!config.publicBaseUrl) missing.push('PUBLIC_BASE_URL');
    if (!config.roblox.citizenGroupId) missing.push('CITIZEN_GROUP_ID');
    if (!config.roblox.governmentGroupId) missing.push('GOVERNMENT_GROUP_ID');
    if (!config.sessionSecret) missing.push('SESSION_SECRET');
  }
  if (missing.length > 0) {
    throw new IdentityConfigurationError(`Sign-in with Roblox is not fully configured: set ${missing.join(', ')}.`);
  }
  if (config.env === 'production' && config.sessionSecret && config.sessionSecret.length < 32) {
    throw new IdentityConfigurationError('SESSION_SECRET must be at least 32 characters of random text.');
  }
}

export async function prepareIdentityProvider(
  config: ServerConfig,
  options: { log?: (message: string) => void; developmentSignIn?: DevelopmentSignIn } = {},
): Promise<PreparedIdentityProvider> {
  const publicBaseUrl = defaultPublicBaseUrl(config);

  if (config.roblox.clientId || config.roblox.clientSecret) {
    checkRobloxConfig(config);
    const warnings = config.adminUserId ? '' : ' (ADMIN_USER_ID is not set: nobody is the system administrator)';
    return {
      config: { ...config, publicBaseUrl },
      startupMessage: `Sign in with Roblox at ${publicBaseUrl ?? 'the public address'}${warnings}`,
      async close() {},
    };
  }

  if (config.env === 'production') {
    throw new IdentityConfigurationError(
      'No Roblox OAuth client is configured. Set ROBLOX_CLIENT_ID and ROBLOX_CLIENT_SECRET (with PUBLIC_BASE_URL, ' +
        'CITIZEN_GROUP_ID, GOVERNMENT_GROUP_ID, ADMIN_USER_ID and SESSION_SECRET). ' +
        'The local development sign-in provider never runs in production.',
    );
  }

  if (!options.developmentSignIn) {
    throw new IdentityConfigurationError('No Roblox OAuth client is configured: set ROBLOX_CLIENT_ID and ROBLOX_CLIENT_SECRET.');
  }
  return options.developmentSignIn(config, publicBaseUrl ?? `http://localhost:${config.port}`, options.log);
}
