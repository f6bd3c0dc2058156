/**
 * The maintenance switch's read (site/site-settings.ts): every API call asks it, so the calls that
 * find its one-second copy expired share one database read, and a call made after a switch never
 * shares a read that began before it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type OpenDatabase } from '../../src-server/db/database.ts';
import { createSiteSettings } from '../../src-server/site/site-settings.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

let dir: string;
let database: TestDatabase;
let opened: OpenDatabase;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-site-settings-'));
  database = await createTestDatabase(dir);
  opened = await openDatabase(database.url);
});

afterAll(async () => {
  await opened?.close();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The database, counting the reads sent through it; `holdNextRead` keeps the next read's answer until released. */
function countingReads() {
  const counter = { reads: 0 };
  let held: Promise<void> | null = null;
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (args.node.kind === 'SelectQueryNode') counter.reads += 1;
      return args.node;
    },
    async transformResult(args) {
      const hold = held;
      held = null;
      await hold;
      return args.result;
    },
  };
  const holdNextRead = () => {
    let release = () => {};
    held = new Promise<void>((resolve) => (release = resolve));
    return release;
  };
  return { db: opened.db.withPlugin(plugin), counter, holdNextRead };
}

it('answers the calls that arrive together with one read, and a call after a switch with the new value', async () => {
  const { db, counter, holdNextRead } = countingReads();
  const settings = createSiteSettings(db);
  const answers = await Promise.all(Array.from({ length: 50 }, () => settings.isMaintenanceOn()));
  expect(answers).toEqual(Array.from({ length: 50 }, () => false));
  expect(counter.reads).toBe(1);

  // A read has its answer (off) but has not returned it when the switch is turned on.
  settings.committed();
  const release = holdNextRead();
  const begunBefore = settings.isMaintenanceOn();
  await settings.setMaintenance(true);
  expect(await settings.isMaintenanceOn()).toBe(true);
  release();
  expect(await begunBefore).toBe(false);
  // What it read was not kept either.
  expect(await settings.isMaintenanceOn()).toBe(true);
  expect(counter.reads).toBe(3);
  await settings.setMaintenance(false);
});
