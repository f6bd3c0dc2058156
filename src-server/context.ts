/** Everything a route module needs, built once per server. */
import type { Kysely } from 'kysely';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/schema.ts';
import type { SqlDialectName } from './db/dialect.ts';
import { transactionLocks, type TransactionLocks } from './db/transaction-locks.ts';
import { cookieSettings, type CookieSettings } from './http/viewer.ts';
import { createSignatureCounts, type SignatureCounts } from './petitions/signature-counts.ts';
import { createSigningService, type SigningService } from './petitions/signing.ts';
import { createPostgresSigningService, exactStoredCounts } from './petitions/signing-postgres.ts';
import { createSiteScale, LARGE_SITE_PETITIONS, type SiteScale } from './petitions/site-scale.ts';
import { createSessionService, type SessionService } from './sessions/session-service.ts';
import { createSiteSettings, type SiteSettings } from './site/site-settings.ts';
import { createLivePublisher, type LivePublisher } from './site/live-publisher.ts';
import { readPetitionCounts, readSiteState } from './site/site-state-source.ts';
import { createUserRepository, type UserRepository } from './users/user-repository.ts';

export interface AppContext {
  config: ServerConfig;
  db: Kysely<Database>;
  dialect: SqlDialectName;
  /** Serialises transactions on a key across connections and nodes (transaction-locks.ts). */
  locks: TransactionLocks;
  sessions: SessionService;
  users: UserRepository;
  siteSettings: SiteSettings;
  /** Whether the site is large enough for figures that may lag (site-scale.ts). */
  siteScale: SiteScale;
  /** Stored signature counts, written behind on large sites (signature-counts.ts). */
  signatureCounts: SignatureCounts;
  signing: SigningService;
  /** The live stream's one publisher (site state and watched counts, read once per tick). */
  live: LivePublisher;
  cookie: CookieSettings;
  /** Schedulers and outbox workers run in the real server, not in request-level tests that drive them by hand. */
  runBackgroundJobs: boolean;
  /** The clock, replaceable so tests can travel in time. */
  now: () => Date;
}

export function createAppContext(options: {
  config: ServerConfig;
  db: Kysely<Database>;
  dialect: SqlDialectName;
  runBackgroundJobs?: boolean;
  now?: () => Date;
  /** From how many petitions on the site counts as large (tests lower it to exercise that mode). */
  largeSitePetitions?: number;
}): AppContext {
  const now = options.now ?? (() => new Date());
  const siteScale = createSiteScale(options.db, options.largeSitePetitions ?? LARGE_SITE_PETITIONS);
  // Where the engines differ on the hot path: SQLite signs on its direct connection and writes counts
  // behind (one process owns the file); PostgreSQL signs in cross-node batches with exact stored counts.
  const postgres = options.dialect === 'postgres';
  const signatureCounts = postgres ? exactStoredCounts : createSignatureCounts({ db: options.db, scale: siteScale, now });
  const signing = postgres
    ? createPostgresSigningService({ db: options.db, now })
    : createSigningService({ db: options.db, counts: signatureCounts, now });
  const siteSettings = createSiteSettings(options.db);
  const live = createLivePublisher({
    readSiteState: () => readSiteState(options.db, siteSettings, now()),
    readCounts: (ids) => readPetitionCounts(options.db, signatureCounts, ids),
  });
  return {
    config: options.config,
    db: options.db,
    dialect: options.dialect,
    locks: transactionLocks(options.dialect),
    sessions: createSessionService(options.db),
    users: createUserRepository(options.db),
    siteSettings,
    siteScale,
    signatureCounts,
    signing,
    live,
    cookie: cookieSettings(options.config.publicBaseUrl),
    runBackgroundJobs: options.runBackgroundJobs ?? false,
    now,
  };
}
