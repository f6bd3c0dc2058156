/** Everything a route module needs, built once per server. */
import type { Kysely } from 'kysely';
import type { ServerConfig } from './config.ts';
import type { Database } from './db/schema.ts';
import type { SqlDialectName } from './db/database.ts';
import { cookieSettings, type CookieSettings } from './http/viewer.ts';
import { createSessionService, type SessionService } from './sessions/session-service.ts';
import { createSiteSettings, type SiteSettings } from './site/site-settings.ts';
import { createUserRepository, type UserRepository } from './users/user-repository.ts';

export interface AppContext {
  config: ServerConfig;
  db: Kysely<Database>;
  dialect: SqlDialectName;
  sessions: SessionService;
  users: UserRepository;
  siteSettings: SiteSettings;
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
}): AppContext {
  return {
    config: options.config,
    db: options.db,
    dialect: options.dialect,
    sessions: createSessionService(options.db),
    users: createUserRepository(options.db),
    siteSettings: createSiteSettings(options.db),
    cookie: cookieSettings(options.config.publicBaseUrl),
    runBackgroundJobs: options.runBackgroundJobs ?? false,
    now: options.now ?? (() => new Date()),
  };
}
