/**
 * SQLite's write-ahead log is copied back by the checkpoint worker (src-server/db/wal-checkpointer.ts,
 * docs/operations.md#checkpoints), not by the connection that answers requests: once the log passes
 * a few megabytes, the database file takes in the written pages within a few of the worker's
 * intervals, while the request thread's own checkpoint (the safety net) is far from due.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { directSqlite } from '../../src-server/db/direct-sqlite.ts';
import { openDatabase } from '../../src-server/db/database.ts';
import { CHECKPOINT_INTERVAL_MS } from '../../src-server/db/wal-checkpointer.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'petitions-checkpoint-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the checkpoint worker', () => {
  it('copies a busy log back into the database file on its own thread', async () => {
    const file = path.join(dir, 'busy.db');
    const database = await openDatabase(`sqlite:${file}`);
    try {
      const sqlite = directSqlite(database.db)!.sqlite;
      sqlite.exec('CREATE TABLE filler (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
      const sizeBefore = fs.statSync(file).size;
      // About 8 MB in many small transactions, as signing writes: past the worker's start, far below the safety net.
      const insert = sqlite.prepare('INSERT INTO filler (body) VALUES (?)');
      const body = 'x'.repeat(2000);
      for (let batch = 0; batch < 200; batch++) sqlite.transaction(() => { for (let row = 0; row < 20; row++) insert.run(body); })();
      expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(4 * 1024 * 1024);
      expect(fs.statSync(file).size).toBeLessThan(sizeBefore + 1024 * 1024);

      // The watcher looks every 250 ms; then the worker checkpoints every CHECKPOINT_INTERVAL_MS.
      const deadline = Date.now() + 5_000 + 20 * CHECKPOINT_INTERVAL_MS;
      while (fs.statSync(file).size < sizeBefore + 7 * 1024 * 1024 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(fs.statSync(file).size).toBeGreaterThan(sizeBefore + 7 * 1024 * 1024);
      expect(sqlite.prepare('SELECT count(*) AS n FROM filler').get()).toEqual({ n: 4000 });
    } finally {
      await database.close();
    }
  });
});
