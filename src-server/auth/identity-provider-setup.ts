/**
 * Decides, before anything else starts, who the server signs users in with:
 * - a configured Roblox OAuth client (ROBLOX_CLIENT_ID/SECRET), checked for completeness; or
 * - outside production, with no client configured, the local development OpenID provider, started
 *   here and wired in (issuer, API base, a generated client, the development group and admin ids),
 *   so a newcomer can try every role without Roblox credentials;
 * - in production without a client: a start-up failure that says what to set.
 */
import { randomBytes } from 'node:crypto';
import { CONSOLE_LOOPBACK_REDIRECT_URI } from '../../src-shared/console/sign-in.ts';
import type { ServerConfig } from '../config.ts';
import {
  DEV_ADMIN_USER_ID,
  DEV_CITIZEN_GROUP_ID,
  DEV_GOVERNMENT_GROUP_ID,
  startDevProvider,
  type DevProvider,
} from '../dev-provider/index.ts';
import { WEB_CALLBACK_PATH } from './sign-in.ts';

/**
 * The loopback redirect the development provider accepts for the desktop console (a fixed port,
 * as Roblox's dashboard needs each redirect registered in full).
 */
export const DEV_CONSOLE_REDIRECT_URI = CONSOLE_LOOPBACK_REDIRECT_URI;

export interface PreparedIdentityProvider {
  config: ServerConfig;
  /** The local provider, when this process runs one. */
  devProvider?: DevProvider;
  /** One line for the log once the server listens: where to go to sign in. */
  startupMessage: string;
  close(): Promise<void>;
}

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
  options: { log?: (message: string) => void } = {},
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

  const baseUrl = publicBaseUrl ?? `http://localhost:${config.port}`;
  const client = {
    client_id: `petitions-dev-${randomBytes(4).toString('hex')}`,
    client_secret: randomBytes(32).toString('base64url'),
    redirect_uris: [`${baseUrl}${WEB_CALLBACK_PATH}`, DEV_CONSOLE_REDIRECT_URI],
  };
  let devProvider: DevProvider;
  try {
    devProvider = await startDevProvider({
      port: config.devProviderPort,
      clients: [client],
      citizenGroupId: DEV_CITIZEN_GROUP_ID,
      governmentGroupId: DEV_GOVERNMENT_GROUP_ID,
      ...(options.log ? { logger: { info: options.log } } : {}),
    });
  } catch (error) {
    throw new IdentityConfigurationError(
      `Could not start the development sign-in provider on port ${config.devProviderPort} ` +
        `(set DEV_PROVIDER_PORT to another port, or configure ROBLOX_CLIENT_ID and ROBLOX_CLIENT_SECRET): ${
          error instanceof Error ? error.message : String(error)
        }`,
    );
  }

  return {
    config: {
      ...config,
      publicBaseUrl: baseUrl,
      roblox: {
        ...config.roblox,
        clientId: client.client_id,
        clientSecret: client.client_secret,
        issuer: devProvider.issuer,
        apiBase: devProvider.apiBase,
        // The legacy fallback stays opt-in, as in production.
        legacyGroupsBase: config.roblox.legacyGroupsBase ? devProvider.apiBase : undefined,
        citizenGroupId: DEV_CITIZEN_GROUP_ID,
        governmentGroupId: DEV_GOVERNMENT_GROUP_ID,
      },
      adminUserId: config.adminUserId ?? DEV_ADMIN_USER_ID,
    },
    devProvider,
    startupMessage:
      `Development sign-in: open ${baseUrl} and press "Login with ROBLOX"; the local provider (${devProvider.issuer}) ` +
      'lets you pick a persona (citizen, ministers, administrator) without a Roblox account.',
    close: () => devProvider.close(),
  };
}
