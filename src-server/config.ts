/** Server configuration from the environment, validated once at start-up. */
import path from 'node:path';
import { z } from 'zod';
import { REPORTS_PER_DAY_DEFAULT, REPORTS_TO_HIDE_DEFAULT } from '../src-shared/domain/moderation-constants.ts';
import { RATE_LIMITS, STREAM_LIMITS, parseRateLimit, type RateLimitName, type RateLimitRule } from '../src-shared/rules/limits.ts';
import { parseTrustedProxies } from './http/client-address.ts';
import { DEFAULT_NOTIFICATION_RETENTION_MONTHS } from '../src-shared/domain/feed-constants.ts';
import { DEFAULT_SIGNER_RETENTION_MONTHS } from '../src-shared/domain/privacy-constants.ts';
import { DEFAULT_PUSH_SERVICE_ORIGINS, parsePushServiceOrigins } from './push/push-service-origins.ts';
import { DEFAULT_BURST_SIGNATURES, MAX_MINIMUM_ACCOUNT_AGE_DAYS } from '../src-shared/domain/constants.ts';
import { DEFAULT_DEBATE_TARGET_DAYS, DEFAULT_RESPONSE_TARGET_DAYS, TARGET_DAYS_MAX } from '../src-shared/domain/team-constants.ts';
import { queueTargets, type QueueTargets } from '../src-shared/rules/queue-ageing.ts';

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() ? value.trim() : undefined));

/** true/false/1/0, as environment variables are written; anything else is a start-up error. */
const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: optionalText,
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).optional(),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).optional(),
  PETITION_CACHE_ENTRIES: z.coerce.number().int().min(0).optional(),
  SESSION_CACHE_ENTRIES: z.coerce.number().int().min(0).optional(),
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
  ROBLOX_VERIFICATION_SCOPE: flag,
  CITIZEN_GROUP_ID: optionalText,
  GOVERNMENT_GROUP_ID: optionalText,
  ADMIN_USER_ID: optionalText,
  SESSION_SECRET: optionalText,
  DEV_PROVIDER_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
  CLOSURE_INTERVAL_MS: z.coerce.number().int().min(1000).default(60_000),
  NOTIFICATION_RETENTION_MONTHS: z.coerce.number().int().min(1).max(1200).default(DEFAULT_NOTIFICATION_RETENTION_MONTHS),
  SIGNER_RETENTION_MONTHS: z.coerce.number().int().min(1).max(1200).default(DEFAULT_SIGNER_RETENTION_MONTHS),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(64 * 1024),
  WEB_DIST_DIR: optionalText,
  // Community safety (docs/moderation.md#thresholds).
  REPORTS_TO_HIDE: z.coerce.number().int().min(1).max(1000).default(REPORTS_TO_HIDE_DEFAULT),
  REPORTS_PER_DAY: z.coerce.number().int().min(1).max(10_000).default(REPORTS_PER_DAY_DEFAULT),
  // Limits and timeouts (docs/limits.md).
  TRUST_PROXY: optionalText,
  RATE_LIMIT_SIGN_IN: optionalText,
  RATE_LIMIT_SEARCH: optionalText,
  RATE_LIMIT_LIST: optionalText,
  RATE_LIMIT_EXPORT: optionalText,
  STREAMS_PER_CLIENT: z.coerce.number().int().min(1).default(STREAM_LIMITS.perClient),
  STREAMS_PER_USER: z.coerce.number().int().min(1).default(STREAM_LIMITS.perUser),
  STREAMS_TOTAL: z.coerce.number().int().min(1).optional(),
  STREAM_MAX_AGE_MS: z.coerce.number().int().min(10_000).default(60 * 60 * 1000),
  CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(1).default(256),
  CONNECTIONS_TOTAL: z.coerce.number().int().min(1).optional(),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(500).default(5_000),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(30_000),
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(72_000),
  DATABASE_POOL_WAIT_MS: z.coerce.number().int().min(1).default(2_000),
  SEARCH_CONNECTIONS: z.coerce.number().int().min(1).optional(),
  WEB_PUSH: z.enum(['auto', 'on', 'off']).default('auto'),
  VAPID_PUBLIC_KEY: optionalText.pipe(z.string().regex(/^B[A-Za-z0-9_-]{86}$/, 'VAPID_PUBLIC_KEY must be a P-256 public key: 65 bytes, base64url without padding').optional()),
  VAPID_PRIVATE_KEY: optionalText.pipe(z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'VAPID_PRIVATE_KEY must be a P-256 private key: 32 bytes, base64url without padding').optional()),
  VAPID_SUBJECT: optionalText.pipe(z.string().regex(/^(mailto:|https:\/\/)\S+$/, 'VAPID_SUBJECT must be a mailto: or https: address').optional()),
  PUSH_SERVICE_ORIGINS: optionalText,
  PUSH_DELIVERY_CLAIM_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  /** Queue targets in days from the threshold (docs/console-team.md#ageing-targets). */
  RESPONSE_TARGET_DAYS: z.coerce.number().int().min(1).max(TARGET_DAYS_MAX).default(DEFAULT_RESPONSE_TARGET_DAYS),
  DEBATE_TARGET_DAYS: z.coerce.number().int().min(1).max(TARGET_DAYS_MAX).default(DEFAULT_DEBATE_TARGET_DAYS),
  DATABASE_START_TIMEOUT_S: z.coerce.number().min(0).max(86_400).default(60),
  BACKUP_DIR: optionalText,
  BACKUP_INTERVAL_HOURS: z.coerce.number().positive().max(24 * 365).default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(7),
  METRICS_TOKEN: optionalText.refine((token) => token === undefined || token.length >= 16, 'METRICS_TOKEN must be at least 16 characters'),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  MIN_ACCOUNT_AGE_DAYS: z.coerce.number().int().min(0).max(MAX_MINIMUM_ACCOUNT_AGE_DAYS).default(0),
  INTEGRITY_BURST_SIGNATURES: z.coerce.number().int().min(2).max(10_000).default(DEFAULT_BURST_SIGNATURES),
  INTEGRITY_SCAN_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
  INTEGRITY_JOB_LEASE_MS: z.coerce.number().int().min(500).max(600_000).default(15_000),
});

export type Env = z.infer<typeof EnvSchema>;

export interface ServerConfig {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  /** `sqlite:<file>` or a `postgres://` URL. */
  databaseUrl: string;
  /** PostgreSQL only: connections per process, and the longest a statement may run (0: no limit). */
  databasePool: { poolSize: number | undefined; statementTimeoutMs: number | undefined; poolWaitMs: number | undefined };
  /** PostgreSQL only: petition rows each node keeps (petitions/petition-cache.ts; 0: none; unset: the default). */
  petitionCacheEntries: number | undefined;
  /** PostgreSQL only: sessions each node keeps (sessions/session-cache.ts; 0: none; unset: the default). */
  sessionCacheEntries: number | undefined;
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
    /** Ask Roblox for the `verified` claim too (the `verification` scope). */
    requestVerification: boolean;
  };
  adminUserId: string | undefined;
  sessionSecret: string | undefined;
  devProviderPort: number;
  closureIntervalMs: number;
  /** Petition events (members' notifications) older than this are deleted (feed/retention.ts). */
  notificationRetentionMonths: number;
  /** Signers of petitions closed longer than this are anonymised (privacy/signer-retention.ts, docs/privacy.md#signer-retention). */
  signerRetentionMonths: number;
  bodyLimitBytes: number;
  /** The built web app to serve; unset: dist-web of this checkout. */
  webDistDir?: string;
  /** Distinct open reports that hide a petition, and reports per member per UK day (docs/moderation.md#thresholds). */
  moderation: { reportsToHide: number; reportsPerDay: number };
  /** How long each queue may wait before a petition is overdue, and when it is due soon. */
  queueTargets: QueueTargets;
  /** How long a starting node keeps trying to reach the database before it gives up (docs/operations.md#starting-before-the-database). */
  databaseStartTimeoutMs: number;
  /** Scheduled backups (docs/operations.md#scheduled-backups); off when `dir` is unset. */
  backups: { dir: string | undefined; intervalMs: number; keep: number };
  /** GET /metrics (docs/operations.md#metrics): the bearer token it requires, and its own loopback port. */
  metrics: { token: string | undefined; port: number | undefined };
  /** Per-client limits, connection limits and timeouts (docs/limits.md). */
  limits: LimitsConfig;
  /** Where the server keeps files of its own (the SQLite database by default, development VAPID keys). */
  dataDir: string;
  push: WebPushConfig;
  /** Signature integrity settings (docs/integrity.md). */
  integrity: IntegrityConfig;
}

export interface LimitsConfig {
  /**
   * The proxies whose X-Forwarded-For is believed (addresses, CIDR ranges, or `loopback`,
   * `linklocal`, `uniquelocal`); empty: the client address is the socket's peer.
   */
  trustProxy: string[];
  /** Each named limit, or null when switched off (`off`). */
  rates: Record<RateLimitName, RateLimitRule | null>;
  streamsPerClient: number;
  streamsPerUser: number;
  /** Unset: derived from the process's file-descriptor limit at start (server-capacity.ts). */
  streamsTotal: number | undefined;
  streamMaxAgeMs: number;
  connectionsPerClient: number;
  connectionsTotal: number | undefined;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  /** PostgreSQL: longest a request waits for a pooled connection before answering 503. */
  poolWaitMs: number;
  /** PostgreSQL: how many pooled connections searches and exports may hold at once (unset: half the pool). */
  searchConnections: number | undefined;
}

const RATE_LIMIT_VARIABLES: Record<RateLimitName, keyof Env> = {
  signIn: 'RATE_LIMIT_SIGN_IN',
  search: 'RATE_LIMIT_SEARCH',
  list: 'RATE_LIMIT_LIST',
  export: 'RATE_LIMIT_EXPORT',
};

/** `60/10m`, or `off`; unset gives the shared default. A typo stops the start rather than silently lifting a limit. */
function rateLimitFrom(env: Env, name: RateLimitName): RateLimitRule | null {
  const variable = RATE_LIMIT_VARIABLES[name];
  const text = env[variable] as string | undefined;
  if (text === undefined) return { ...RATE_LIMITS[name] };
  if (text.toLowerCase() === 'off') return null;
  const rule = parseRateLimit(text);
  if (!rule) throw new Error(`${variable} must look like 60/10m (calls per window; units ms, s, m, h, d) or be off, not "${text}"`);
  return rule;
}

function limitsFrom(env: Env): LimitsConfig {
  if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS) throw new Error('HEADERS_TIMEOUT_MS must not exceed REQUEST_TIMEOUT_MS');
  return {
    trustProxy: parseTrustedProxies(env.TRUST_PROXY),
    rates: {
      signIn: rateLimitFrom(env, 'signIn'),
      search: rateLimitFrom(env, 'search'),
      list: rateLimitFrom(env, 'list'),
      export: rateLimitFrom(env, 'export'),
    },
    streamsPerClient: env.STREAMS_PER_CLIENT,
    streamsPerUser: env.STREAMS_PER_USER,
    streamsTotal: env.STREAMS_TOTAL,
    streamMaxAgeMs: env.STREAM_MAX_AGE_MS,
    connectionsPerClient: env.CONNECTIONS_PER_CLIENT,
    connectionsTotal: env.CONNECTIONS_TOTAL,
    headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
    requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: env.KEEP_ALIVE_TIMEOUT_MS,
    poolWaitMs: env.DATABASE_POOL_WAIT_MS,
    searchConnections: env.SEARCH_CONNECTIONS,
  };
}

/** Web push (docs/notifications.md#web-push); push/web-push-settings.ts turns it into keys or "off". */
export interface WebPushConfig {
  /** auto: on with configured keys, or in development with keys generated into the data folder; on: the same, but required; off: never. */
  mode: 'auto' | 'on' | 'off';
  vapid: { publicKey: string | undefined; privateKey: string | undefined; subject: string | undefined };
  /** The push services devices may use: origins, a leading `*.` matching subdomains. */
  serviceOrigins: string[];
  /** How long a node's claim on a batch of messages lasts before another node may send them. */
  claimMs: number;
}

/** A configuration the server must not start with. */
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

function webPushConfig(env: Env): WebPushConfig {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey, VAPID_SUBJECT: subject } = env;
  const production = env.NODE_ENV === 'production';
  if (Boolean(publicKey) !== Boolean(privateKey)) {
    throw new ConfigurationError('Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (a pair, e.g. from `npx web-push generate-vapid-keys`), or neither.');
  }
  if (production && env.WEB_PUSH !== 'off' && publicKey && !subject) {
    throw new ConfigurationError('VAPID_SUBJECT is required with web push in production: a mailto: or https: address push services can reach you at.');
  }
  if (production && env.WEB_PUSH === 'on' && !publicKey) {
    throw new ConfigurationError('WEB_PUSH=on in production needs VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT.');
  }
  const serviceOrigins = env.PUSH_SERVICE_ORIGINS ? parsePushServiceOrigins(env.PUSH_SERVICE_ORIGINS) : [...DEFAULT_PUSH_SERVICE_ORIGINS];
  if (production && serviceOrigins.some((origin) => !origin.startsWith('https://'))) {
    throw new ConfigurationError('PUSH_SERVICE_ORIGINS may name only https origins in production.');
  }
  return { mode: env.WEB_PUSH, vapid: { publicKey, privateKey, subject }, serviceOrigins, claimMs: env.PUSH_DELIVERY_CLAIM_MS };
}

export interface IntegrityConfig {
  /** Days a ROBLOX account must be old to sign and to create petitions; 0 switches the rule off. */
  minAccountAgeDays: number;
  /** Signatures within one minute on one petition that count as a burst. */
  burstSignatures: number;
  /** How often the signing monitor looks at new signatures (one node at a time). */
  scanIntervalMs: number;
  /** How long a node holds a running invalidation before another node may take it over. */
  jobLeaseMs: number;
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): ServerConfig {
  const env = EnvSchema.parse(source);
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    databaseUrl: env.DATABASE_URL ?? `sqlite:${path.join(env.DATA_DIR, 'petitions.db')}`,
    databasePool: { poolSize: env.DATABASE_POOL_SIZE, statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS, poolWaitMs: env.DATABASE_POOL_WAIT_MS },
    petitionCacheEntries: env.PETITION_CACHE_ENTRIES,
    sessionCacheEntries: env.SESSION_CACHE_ENTRIES,
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
      requestVerification: env.ROBLOX_VERIFICATION_SCOPE,
    },
    adminUserId: env.ADMIN_USER_ID,
    sessionSecret: env.SESSION_SECRET,
    devProviderPort: env.DEV_PROVIDER_PORT,
    closureIntervalMs: env.CLOSURE_INTERVAL_MS,
    notificationRetentionMonths: env.NOTIFICATION_RETENTION_MONTHS,
    signerRetentionMonths: env.SIGNER_RETENTION_MONTHS,
    bodyLimitBytes: env.BODY_LIMIT_BYTES,
    webDistDir: env.WEB_DIST_DIR ? path.resolve(env.WEB_DIST_DIR) : undefined,
    moderation: { reportsToHide: env.REPORTS_TO_HIDE, reportsPerDay: env.REPORTS_PER_DAY },
    limits: limitsFrom(env),
    dataDir: path.resolve(env.DATA_DIR),
    push: webPushConfig(env),
    queueTargets: queueTargets(env.RESPONSE_TARGET_DAYS, env.DEBATE_TARGET_DAYS),
    databaseStartTimeoutMs: env.DATABASE_START_TIMEOUT_S * 1000,
    backups: {
      dir: env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : undefined,
      intervalMs: Math.round(env.BACKUP_INTERVAL_HOURS * 3_600_000),
      keep: env.BACKUP_KEEP,
    },
    metrics: { token: env.METRICS_TOKEN, port: env.METRICS_PORT },
    integrity: {
      minAccountAgeDays: env.MIN_ACCOUNT_AGE_DAYS,
      burstSignatures: env.INTEGRITY_BURST_SIGNATURES,
      scanIntervalMs: env.INTEGRITY_SCAN_INTERVAL_MS,
      jobLeaseMs: env.INTEGRITY_JOB_LEASE_MS,
    },
  };
}
