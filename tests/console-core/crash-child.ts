/**
 * A console process for the crash test: runs the console core's sync over its SQLite outbox until
 * nothing is left to send, then prints "drained" and exits. The test SIGKILLs it at random points.
 * Environment: CONSOLE_DATA_DIR, PETITIONS_API_URL, CONSOLE_USER_ID, CONSOLE_TOKEN.
 */
import { createConsoleCore } from '../../src-main/node/console-core.ts';

const session = { userId: process.env.CONSOLE_USER_ID ?? '', token: process.env.CONSOLE_TOKEN ?? '' };
const core = createConsoleCore({
  dataDir: process.env.CONSOLE_DATA_DIR ?? '',
  apiBaseUrl: process.env.PETITIONS_API_URL ?? '',
  auth: { current: () => session, reportUnauthorized: () => undefined, onChange: () => () => undefined },
  events: { emit: () => undefined },
});
core.start();
process.stdout.write('ready\n');
for (;;) {
  await core.whenIdle();
  const { summary } = await core.handlers['outbox:list']({ limit: 1 });
  if (summary.queued === 0 && summary.sending === 0) break;
  // Rows in retry_wait: try again soon rather than after their full backoff.
  await new Promise((resolve) => setTimeout(resolve, 50));
  core.setOnline(true);
}
await core.close();
process.stdout.write('drained\n');
