/**
 * Scheduled backups (both engines; docs/operations.md#scheduled-backups): server nodes with
 * BACKUP_DIR and a short BACKUP_INTERVAL_HOURS write backups under their final names only when
 * complete (no temporary file stays), each readable as a backup, the oldest pruned to BACKUP_KEEP.
 * On PostgreSQL two nodes share the directory and the database: one backup per interval between
 * them, never two at once (their times stay an interval apart).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPgDump } from '../../src-server/backup/postgres-backup.ts';
import { checkSqliteCopy } from '../../src-server/backup/sqlite-backup.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { startServerNode, type ServerNode } from '../support/server-node.ts';
import { createTestDatabase, TEST_ENGINE, type TestDatabase } from '../support/test-database.ts';

/** 0.001 h = 3.6 s; nodes check every second (a quarter interval, at least 1 s). */
const INTERVAL_HOURS = 0.001;
const INTERVAL_MS = INTERVAL_HOURS * 3_600_000;
const KEEP = 2;
const NAME = /^petitions-(\d{8}T\d{6}Z)\.(sqlite|pgdump)$/;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-backup-schedule-'));
const backupDir = path.join(dir, 'backups');
let database: TestDatabase;
const nodes: ServerNode[] = [];

beforeAll(async () => {
  database = await createTestDatabase(dir, 'petitions.db');
  // Migrated before the nodes start, as a deployment would.
  await (await openDatabase(database.url)).close();
});

afterAll(async () => {
  for (const node of nodes) await node.stop();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function stampMs(name: string): number {
  const stamp = NAME.exec(name)![1]!;
  return Date.parse(`${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`);
}

describe(`scheduled backups (${TEST_ENGINE})`, () => {
  it('writes complete, readable backups every interval, one node at a time, and keeps the newest BACKUP_KEEP', async () => {
    const env = { DATABASE_URL: database.url, BACKUP_DIR: backupDir, BACKUP_INTERVAL_HOURS: String(INTERVAL_HOURS), BACKUP_KEEP: String(KEEP), LOG_LEVEL: 'info' };
    // SQLite: one process owns the file. PostgreSQL: two nodes compete for each backup.
    const count = TEST_ENGINE === 'postgres' ? 2 : 1;
    const startedAt = Date.now();
    for (let i = 0; i < count; i += 1) nodes.push(await startServerNode(env));

    // Watch the folder for a while: every name seen, and whether any temporary file outlives a check.
    const seen = new Set<string>();
    const deadline = Date.now() + INTERVAL_MS * 3.6;
    while (Date.now() < deadline) {
      for (const name of fs.existsSync(backupDir) ? fs.readdirSync(backupDir) : []) if (NAME.test(name)) seen.add(name);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const node of nodes.splice(0)) await node.stop();
    // A backup running when the watch ended completes during the stop (and prunes): count it too.
    for (const name of fs.readdirSync(backupDir)) if (NAME.test(name)) seen.add(name);
    const stoppedAt = Date.now();

    const names = [...seen].sort();
    // At start, then about every interval: three or four in the 3.6 intervals watched, and never more
    // than the time from the first start to the last stop allows (a loaded machine stretches the starts
    // and stops: six were seen at a load average of 7).
    expect(names.length).toBeGreaterThanOrEqual(3);
    expect(names.length).toBeLessThanOrEqual(Math.floor((stoppedAt - startedAt) / INTERVAL_MS) + 1);
    // Never two in one interval, whichever node took them (a backup is due a little early: half a check period).
    for (let i = 1; i < names.length; i += 1) expect(stampMs(names[i]!) - stampMs(names[i - 1]!)).toBeGreaterThanOrEqual(INTERVAL_MS - 1_500);

    const left = fs.readdirSync(backupDir).sort();
    expect(left).toEqual(names.slice(-KEEP));
    for (const name of left) {
      const file = path.join(backupDir, name);
      const summary = TEST_ENGINE === 'sqlite' ? checkSqliteCopy(file) : await checkPgDump(file);
      expect(summary.description).toMatch(TEST_ENGINE === 'sqlite' ? /^integrity ok;/ : /^pg_restore reads it/);
    }
  }, 90_000);
});
