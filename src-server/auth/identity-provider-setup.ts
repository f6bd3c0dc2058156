// Placeholder: the sign-in module replaces this file (it starts the local OpenID provider in development).
import type { ServerConfig } from '../config.ts';

export interface PreparedIdentityProvider {
  config: ServerConfig;
  close(): Promise<void>;
}

export async function prepareIdentityProvider(config: ServerConfig): Promise<PreparedIdentityProvider> {
  return { config, async close() {} };
}
