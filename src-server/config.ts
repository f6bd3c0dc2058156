/** Server configuration from the environment, validated once at start-up. */
import path from 'node:path';
import { z } from 'zod';

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() ? value.trim() : undefined));

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: optionalText,
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).optional(),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).optional(),
  DATA_DIR: z.string().default('data'),
  PUBLIC_BASE_URL: optionalText,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEED_DEMO_DATA: z.enum(['auto', 'always', 'never']).default('auto'),
  DISCORD_WEBHOOK_URL: optionalText,
  ROBLOX_CLIENT_ID: optionalText,
  ROBLOX_CLIENT_SECRET: optionalText,
  ROBLOX_ISSUER: z.string().default('https://apis.roblox.com/oauth/'),
  ROBLOX_API_BASE: z.string().default('https://apis.roblox.com'),
  ROBLOX_LEGACY_GROUPS_BASE: optionalText,
  CITIZEN_GROUP_ID: optionalText,
  GOVERNMENT_GROUP_ID: optionalText,
  ADMIN_USER_ID: optionalText,
  SESSION_SECRET: optionalText,
  DEV_PROVIDER_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  CLOSURE_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(64 * 1024),
  WEB_DIST_DIR: optionalText,
});

export type Env = z.infer<typeof EnvSchema>;

export interface ServerConfig {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  /** `sqlite:<file>` or a `postgres://` URL. */
  databaseUrl: string;
  /** PostgreSQL only: connections per process, and the longest a statement may run (0: no limit). */
  databasePool: { poolSize: number | undefined; statementTimeoutMs: number | undefined };
  publicBaseUrl: string | undefined;
  logLevel: Env['LOG_LEVEL'];
  seedDemoData: Env['SEED_DEMO_DATA'];
  discordWebhookUrl: string | undefined;
  roblox: {
    clientId: string | undefined;
    clientSecret: string | undefined;
    issuer: string;
    apiBase: string;
    legacyGroupsBase: string | undefined;
    citizenGroupId: string | undefined;
    governmentGroupId: string | undefined;
  };
  adminUserId: string | undefined;
  sessionSecret: string | undefined;
  devProviderPort: number;
  closureIntervalMs: number;
  bodyLimitBytes: number;
  /** The built web app to serve; unset: dist-web of this checkout. */
  webDistDir?: string;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): ServerConfig {
  const env = EnvSchema.parse(source);
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    databaseUrl: env.DATABASE_URL ?? `sqlite:${path.join(env.DATA_DIR, 'petitions.db')}`,
    databasePool: { poolSize: env.DATABASE_POOL_SIZE, statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS },
    publicBaseUrl: env.PUBLIC_BASE_URL,
    logLevel: env.LOG_LEVEL,
    seedDemoData: env.SEED_DEMO_DATA,
    discordWebhookUrl: env.DISCORD_WEBHOOK_URL,
    roblox: {
      clientId: env.ROBLOX_CLIENT_ID,
      clientSecret: env.ROBLOX_CLIENT_SECRET,
      issuer: env.ROBLOX_ISSUER,
      apiBase: env.ROBLOX_API_BASE,
      legacyGroupsBase: env.ROBLOX_LEGACY_GROUPS_BASE,
      citizenGroupId: env.CITIZEN_GROUP_ID,
      governmentGroupId: env.GOVERNMENT_GROUP_ID,
    },
    adminUserId: env.ADMIN_USER_ID,
    sessionSecret: env.SESSION_SECRET,
    devProviderPort: env.DEV_PROVIDER_PORT,
    closureIntervalMs: env.CLOSURE_INTERVAL_MS,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    webDistDir: env.WEB_DIST_DIR ? path.resolve(env.WEB_DIST_DIR) : undefined,
  };
}
