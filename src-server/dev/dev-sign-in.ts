/**
 * Development sign-in: starts the local OpenID provider (./provider) and wires it into the
 * configuration (issuer, API base, a generated client, the development group and admin ids).
 * Handed to prepareIdentityProvider by the composition root; production never starts it.
 */
import { randomBytes } from 'node:crypto';
import { CONSOLE_LOOPBACK_REDIRECT_URI } from '../../src-shared/console/sign-in.ts';
import { IdentityConfigurationError, type DevelopmentSignIn, type PreparedIdentityProvider } from '../auth/identity-provider-setup.ts';
import { WEB_CALLBACK_PATH } from '../auth/sign-in.ts';
import {
  DEV_ADMIN_USER_ID,
  DEV_CITIZEN_GROUP_ID,
  DEV_GOVERNMENT_GROUP_ID,
  startDevProvider,
  type DevProvider,
} from './provider/index.ts';

/**
 * The loopback redirect the development provider accepts for the desktop console (a fixed port,
 * as Roblox's dashboard needs each redirect registered in full).
 */
export const DEV_CONSOLE_REDIRECT_URI = CONSOLE_LOOPBACK_REDIRECT_URI;

export interface DevelopmentIdentityProvider extends PreparedIdentityProvider {
  devProvider: DevProvider;
}

export const startDevelopmentSignIn: DevelopmentSignIn = async (config, baseUrl, log): Promise<DevelopmentIdentityProvider> => {
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
      ...(log ? { logger: { info: log } } : {}),
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
        // The local provider gives the `verified` claim (its custom users have a "Verified" box).
        requestVerification: true,
      },
      adminUserId: config.adminUserId ?? DEV_ADMIN_USER_ID,
    },
    devProvider,
    startupMessage:
      `Development sign-in: open ${baseUrl} and press "Login with ROBLOX"; the local provider (${devProvider.issuer}) ` +
      'lets you pick a persona (citizen, ministers, administrator) without a Roblox account.',
    close: () => devProvider.close(),
  };
};
