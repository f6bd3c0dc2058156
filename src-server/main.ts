/**
 * Entry point of `npm start`, and the composition root: API, web app and, in development, what
 * lives under dev/ (the local OpenID provider, the demo seed). Nothing else imports dev/.
 */
import { buildApp } from './app.ts';
import { startServerBackups } from './backup/server-backups.ts';
import { prepareIdentityProvider } from './auth/identity-provider-setup.ts';
import { loadConfig } from './config.ts';
import { createAppContext } from './context.ts';
import { openDatabase } from './db/database.ts';
import { limitsSummary } from './http/limits-summary.ts';
import { DatabaseStartTimeoutError, openDatabaseWhenReachable } from './db/database-start.ts';
import { startStartingResponder } from './http/starting-responder.ts';
import { startDevelopmentSignIn } from './dev/dev-sign-in.ts';
import { seedDemoData } from './dev/seed/demo-seed.ts';

async function main(): Promise<void> {
  const baseConfig = loadConfig();
  const identity = await prepareIdentityProvider(baseConfig, {
    developmentSignIn: startDevelopmentSignIn,
    log: baseConfig.logLevel === 'silent' ? undefined : (message) => console.log(message),
  });
  const config = identity.config;
  const say = config.logLevel === 'silent' ? () => {} : (message: string) => console.log(message);

  // Until the database answers, the port says so (/healthz 200, /readyz 503 with the reason).
  const starting = await startStartingResponder({ host: config.host, port: config.port, reason: 'Connecting to the database' });
  const timeoutMs = config.databaseStartTimeoutMs;
  let database;
  try {
    database = await openDatabaseWhenReachable(() => openDatabase(config.databaseUrl, config.databasePool), {
      timeoutMs,
      onWaiting: ({ reason, attempt, elapsedMs, nextDelayMs }) => {
        const left = Math.max(0, Math.round((timeoutMs - elapsedMs) / 1000));
        starting.setReason(`Waiting for the database (attempt ${attempt}, giving up in ${left} s): ${reason}`);
        say(`The database is not answering yet (attempt ${attempt}: ${reason}); trying again in ${(nextDelayMs / 1000).toFixed(1)} s, giving up in ${left} s`);
      },
    });
  } catch (error) {
    await starting.close();
    throw error;
  }
  const shouldSeed =
    config.seedDemoData === 'always' || (config.seedDemoData === 'auto' && database.created && config.env !== 'production');
  if (shouldSeed) await seedDemoData(database.db);

  const context = createAppContext({ config, db: database.db, dialect: database.dialect, readiness: database.readiness, runBackgroundJobs: true, poolStats: database.poolStats, changeNotices: database.changeNotices });
  const app = await buildApp(context, { serveWebApp: true });
  await startServerBackups(app, context, database);
  await starting.close();
  await app.listen({ host: config.host, port: config.port });
  app.log.info(`Petitions is running at ${config.publicBaseUrl ?? `http://localhost:${config.port}`}`);
  app.log.info(limitsSummary(context), 'limits in force (docs/limits.md)');
  app.log.info(identity.startupMessage);
  if (!database.exclusive) app.log.warn('The database file is open in shared mode (SQLite URI filenames are off): every transaction takes file locks');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // close() stops accepting connections and waits for in-flight requests, so no accepted write is lost.
    await app.close();
    await database.close();
    await identity.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  // The operator's sentence alone when it says everything; a stack otherwise.
  console.error(error instanceof DatabaseStartTimeoutError ? error.message : error);
  process.exit(1);
});
