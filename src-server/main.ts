/**
 * Entry point of `npm start`, and the composition root: API, web app and, in development, what
 * lives under dev/ (the local OpenID provider, the demo seed). Nothing else imports dev/.
 */
import { buildApp } from './app.ts';
import { prepareIdentityProvider } from './auth/identity-provider-setup.ts';
import { loadConfig } from './config.ts';
import { createAppContext } from './context.ts';
import { openDatabase } from './db/database.ts';
import { startDevelopmentSignIn } from './dev/dev-sign-in.ts';
import { seedDemoData } from './dev/seed/demo-seed.ts';

async function main(): Promise<void> {
  const baseConfig = loadConfig();
  const identity = await prepareIdentityProvider(baseConfig, {
    developmentSignIn: startDevelopmentSignIn,
    log: baseConfig.logLevel === 'silent' ? undefined : (message) => console.log(message),
  });
  const config = identity.config;
  const database = await openDatabase(config.databaseUrl, config.databasePool);
  const shouldSeed =
    config.seedDemoData === 'always' || (config.seedDemoData === 'auto' && database.created && config.env !== 'production');
  if (shouldSeed) await seedDemoData(database.db);

  const context = createAppContext({ config, db: database.db, dialect: database.dialect, runBackgroundJobs: true });
  const app = await buildApp(context, { serveWebApp: true });
  await app.listen({ host: config.host, port: config.port });
  app.log.info(`Petitions is running at ${config.publicBaseUrl ?? `http://localhost:${config.port}`}`);
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
  console.error(error);
  process.exit(1);
});
