/** Everything a route module needs, built once per server. */
import type { Kysely } from 'kysely';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/schema.ts';
import { createConnectionGate, ungated, type ConnectionGate } from './db/connection-gate.ts';
import { DEFAULT_POOL_SIZE, DEFAULT_POOL_WAIT_MS } from './db/postgres-database.ts';
import { sharedConnectionProbe, type ReadinessProbe } from './db/readiness-probe.ts';
import type { PoolStats, SqlDialectName } from './db/dialect.ts';
import { createServerMetrics, type ServerMetrics } from './metrics/server-metrics.ts';
import { transactionLocks, type TransactionLocks } from './db/transaction-locks.ts';
import { createClosureRunner, type ClosureRunner } from './closure/closure-scheduler.ts';
import { serverCapacity, type ServerCapacity } from './http/server-capacity.ts';
import { cookieSettings, type CookieSettings } from './http/viewer.ts';
import { createSignatureCounts, type SignatureCounts } from './petitions/signature-counts.ts';
import { createSigningService, type SigningService } from './petitions/signing.ts';
import { createPostgresSigningService, exactStoredCounts } from './petitions/signing-postgres.ts';
import { createPetitionCache, type PetitionCache } from './petitions/petition-cache.ts';
import { findPetitionPage, recentlyChangedPetitions } from './petitions/petition-reads.ts';
import type { ChangeNotices } from './db/change-notices.ts';
import { createSiteScale, LARGE_SITE_PETITIONS, type SiteScale } from './petitions/site-scale.ts';
import { createSessionCache } from './sessions/session-cache.ts';
import { createSessionService, readPostgresSession, readPostgresSessionsAfter, type SessionService } from './sessions/session-service.ts';
import { createSessionStreams, type SessionStreams } from './sessions/session-streams.ts';
import { createSiteSettings, type SiteSettings } from './site/site-settings.ts';
import { createUnreadSource } from './feed/live-unread.ts';
import { createLivePublisher, type LivePublisher } from './site/live-publisher.ts';
import { readPresence } from './presence/presence-store.ts';
import { createStaffEventPublisher, type StaffEventPublisher } from './presence/staff-event-publisher.ts';
import { readQueueSummary } from './staff/queue-summary.ts';
import { readPetitionCounts, readSiteState } from './site/site-state-source.ts';
import { createChatDeliveryWorker, type ChatDeliveryWorker } from './staff-chat/chat-delivery-worker.ts';
import { createModerationWatermark, type ModerationWatermark } from './moderation/moderation-watermark.ts';
import { createPushWorker, type PushWorker } from './push/push-worker.ts';
import { resolveWebPushSettings, type WebPushSettings } from './push/web-push-settings.ts';
import { createUserRepository, type UserRepository } from './users/user-repository.ts';
import { createInvalidationRunner, type InvalidationRunner } from './integrity/invalidation-runner.ts';
import { createSigningMonitor, type SigningMonitor } from './integrity/signing-monitor.ts';

export interface AppContext {
  config: ServerConfig;
  db: Kysely<Database>;
  dialect: SqlDialectName;
  /** Serialises transactions on a key across connections and nodes (transaction-locks.ts). */
  locks: TransactionLocks;
  /** The closure pass, shared by the check-expired route and the timer (background-work.ts): runs never overlap. */
  closure: ClosureRunner;
  sessions: SessionService;
  users: UserRepository;
  siteSettings: SiteSettings;
  /** Whether the site is large enough for figures that may lag (site-scale.ts). */
  siteScale: SiteScale;
  /** Stored signature counts, written behind on large sites (signature-counts.ts). */
  signatureCounts: SignatureCounts;
  signing: SigningService;
  /** Petition rows this node keeps on PostgreSQL, forgotten when the database says they changed (petition-cache.ts). */
  petitionCache: PetitionCache;
  /** The live stream's one publisher (site state and watched counts, read once per tick). */
  live: LivePublisher;
  /** Signature integrity's background work (docs/integrity.md): started with the app, driven by hand in tests. */
  integrity: { monitor: SigningMonitor; runner: InvalidationRunner };
  /** The staff stream's one publisher (presence every tick, the queue summary every few seconds). */
  staffEvents: StaffEventPublisher;
  /** Ends open streams of sessions ended on any node (sessions/session-streams.ts). */
  sessionStreams: SessionStreams;
  /** Delivers the staff chat queue; staff actions nudge it after they commit (background-work.ts starts it). */
  chatDelivery: ChatDeliveryWorker;
  /** Tells this node's kept list pages that a petition left or came back to public view (moderation-watermark.ts). */
  moderationWatermark: ModerationWatermark;
  /** Web push keys and services, or null when this server sends no web push (push/web-push-settings.ts). */
  webPush: WebPushSettings | null;
  /** The web push queue (push/push-worker.ts), started with the app when web push is on. */
  push: PushWorker;
  cookie: CookieSettings;
  /** Connection and stream totals from the file-descriptor limit read at start (server-capacity.ts). */
  capacity: ServerCapacity;
  /**
   * Checks /readyz runs on a connection of its own, so a queue of ordinary requests cannot make
   * every node look unready at once (db/readiness-probe.ts); the database itself where there is no pool.
   */
  readiness: ReadinessProbe;
  /** Searches and exports hold at most this share of the database pool (db/connection-gate.ts). */
  searchGate: ConnectionGate;
  /** Schedulers and delivery workers run in the real server, not in request-level tests that drive them by hand. */
  runBackgroundJobs: boolean;
  /** The clock, replaceable so tests can travel in time. */
  now: () => Date;
  /** Prometheus metrics of this application (metrics/server-metrics.ts). */
  metrics: ServerMetrics;
  /** PostgreSQL: the connection pool right now (metrics); undefined where there is no pool. */
  databasePool: (() => PoolStats) | undefined;
}

export function createAppContext(options: {
  config: ServerConfig;
  db: Kysely<Database>;
  dialect: SqlDialectName;
  runBackgroundJobs?: boolean;
  now?: () => Date;
  /** From how many petitions on the site counts as large (tests lower it to exercise that mode). */
  largeSitePetitions?: number;
  /** What opening the database gave for readiness checks; unset: the database itself. */
  readiness?: ReadinessProbe;
  /** OpenDatabase.poolStats, for the pool gauges. */
  poolStats?: () => PoolStats;
  /** Where background work reports a failed pass (the app's logger). */
  onBackgroundError?: (error: unknown) => void;
  /** OpenDatabase.changeNotices: without them (SQLite, or not given) petitions are read from the database every time. */
  changeNotices?: ChangeNotices | undefined;
}): AppContext {
  const metrics = createServerMetrics();
  const now = options.now ?? (() => new Date());
  const siteScale = createSiteScale(options.db, options.largeSitePetitions ?? LARGE_SITE_PETITIONS);
  // Where the engines differ on the hot path: SQLite signs on its direct connection and writes counts
  // behind (one process owns the file); PostgreSQL signs in cross-node batches with exact stored counts.
  const postgres = options.dialect === 'postgres';
  const signatureCounts = postgres ? exactStoredCounts : createSignatureCounts({ db: options.db, scale: siteScale, now });
  const signing = countSignatures(
    postgres ? createPostgresSigningService({ db: options.db, now }) : createSigningService({ db: options.db, counts: signatureCounts, now }),
    metrics,
  );
  const siteSettings = createSiteSettings(options.db);
  const webPush = resolveWebPushSettings(options.config);
  const live = createLivePublisher({
    readSiteState: () => readSiteState(options.db, siteSettings, now()),
    readCounts: (ids) => readPetitionCounts(options.db, signatureCounts, ids),
    unread: createUnreadSource(options.db),
  });
  const locks = transactionLocks(options.dialect);
  const background = { db: options.db, dialect: options.dialect, locks, signatureCounts, now, config: options.config };
  const staffEvents = createStaffEventPublisher({
    readPresence: () => readPresence(options.db, now(), options.config.adminUserId),
    readQueueSummary: () => readQueueSummary(options.db, options.dialect, options.config.queueTargets, now()),
  });
  return {
    config: options.config,
    db: options.db,
    dialect: options.dialect,
    locks,
    closure: createClosureRunner({ db: options.db, signatureCounts, locks, now }),
    sessions: createSessionService(
      options.db,
      options.dialect,
      postgres && options.changeNotices && options.config.sessionCacheEntries !== 0
        ? createSessionCache({
            load: (idHash) => readPostgresSession(options.db, idHash),
            loadAfter: (cursor, limit) => readPostgresSessionsAfter(options.db, cursor, limit, now()),
            notices: options.changeNotices,
            maxEntries: options.config.sessionCacheEntries,
          })
        : undefined,
    ),
    users: createUserRepository(options.db),
    siteSettings,
    siteScale,
    signatureCounts,
    signing,
    petitionCache: createPetitionCache({
      load: (id) => findPetitionPage(options.db, id),
      loadRecent: (cursor, limit) => recentlyChangedPetitions(options.db, cursor, limit),
      notices: postgres ? options.changeNotices : undefined,
      maxEntries: options.config.petitionCacheEntries,
    }),
    live,
    staffEvents,
    sessionStreams: createSessionStreams(options.db, { onError: options.onBackgroundError }),
    chatDelivery: createChatDeliveryWorker({ db: options.db, config: options.config, now }),
    moderationWatermark: createModerationWatermark(options.db),
    webPush,
    push: createPushWorker({ db: options.db, dialect: options.dialect, settings: webPush, now }),
    integrity: {
      monitor: createSigningMonitor(background),
      runner: createInvalidationRunner(background, { onError: options.onBackgroundError }),
    },
    cookie: cookieSettings(options.config.publicBaseUrl),
    capacity: serverCapacity(options.config.limits),
    readiness: options.readiness ?? sharedConnectionProbe(options.db, options.dialect),
    searchGate: postgres ? searchGateFor(options.config) : ungated,
    runBackgroundJobs: options.runBackgroundJobs ?? false,
    now,
    metrics,
    databasePool: options.poolStats,
  };
}

/** Every signature the service adds moves petitions_signatures_total. */
function countSignatures(signing: SigningService, metrics: ServerMetrics): SigningService {
  return {
    ...signing,
    async sign(...args) {
      const result = await signing.sign(...args);
      metrics.signatures.inc();
      return result;
    },
  };
}

/** Half the pool by default: searches never take the connections ordinary reads and writes need. */
function searchGateFor(config: ServerConfig): ConnectionGate {
  const poolSize = config.databasePool.poolSize ?? DEFAULT_POOL_SIZE;
  const slots = config.limits.searchConnections ?? Math.max(1, Math.floor(poolSize / 2));
  return createConnectionGate({ slots, maxWaitMs: config.databasePool.poolWaitMs ?? DEFAULT_POOL_WAIT_MS });
}
