/**
 * The real server in a process of its own, for tests and benchmarks that kill it or need it on
 * another core: `node tests/support/backend-child.ts` with BACKEND_CONFIG (JSON overrides of the
 * server configuration). Prints "listening" once it accepts requests; SIGTERM stops it cleanly,
 * SIGKILL is the crash the tests want.
 */
import { buildApp } from '../../src-server/app.ts';
import { loadConfig, type ServerConfig } from '../../src-server/config.ts';
import { createAppContext } from '../../src-server/context.ts';
import { openDatabase } from '../../src-server/db/database.ts';

const overrides = JSON.parse(process.env.BACKEND_CONFIG ?? '{}') as Partial<ServerConfig>;
const base = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
const config: ServerConfig = { ...base, ...overrides, roblox: { ...base.roblox, ...overrides.roblox } };
const database = await openDatabase(config.databaseUrl);
const context = createAppContext({ config, db: database.db, dialect: database.dialect, changeNotices: database.changeNotices });
const app = await buildApp(context, { serveWebApp: false, logger: false });
await app.listen({ host: config.host, port: config.port });
process.stdout.write('listening\n');
process.on('SIGTERM', () => {
  void app.close().then(() => database.close()).then(() => process.exit(0));
});
