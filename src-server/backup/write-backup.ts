/**
 * Writing one backup, for the command and the schedule alike (docs/operations.md#backups): the copy
 * goes to a temporary name beside the target, is checked, and only then takes its real name, so a
 * file under a backup's name is always complete and readable.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BackupError, PARTIAL_SUFFIX } from './backup-files.ts';
import { checkPgDump, pgDump } from './postgres-backup.ts';
import { checkSqliteCopy, type BackupSummary } from './sqlite-backup.ts';

export type BackupSource =
  | { dialect: 'postgres'; databaseUrl: string }
  /** `dump` writes a consistent copy to the file it is given (on the server's worker, over its socket, or directly). */
  | { dialect: 'sqlite'; dump: (file: string) => Promise<void> };

export interface WrittenBackup {
  file: string;
  bytes: number;
  summary: BackupSummary;
}

export async function writeBackup(source: BackupSource, out: string): Promise<WrittenBackup> {
  const file = path.resolve(out);
  if (fs.existsSync(file)) throw new BackupError(`${file} exists already: choose another name (a backup never overwrites a file)`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}${PARTIAL_SUFFIX}`;
  fs.rmSync(partial, { force: true });
  try {
    let summary: BackupSummary;
    if (source.dialect === 'postgres') {
      await pgDump(source.databaseUrl, partial);
      summary = await checkPgDump(partial);
    } else {
      await source.dump(partial);
      summary = checkSqliteCopy(partial);
    }
    // On disk before it takes its name: a crash right after the rename leaves a whole file.
    const handle = fs.openSync(partial, 'r');
    try {
      fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
    fs.renameSync(partial, file);
    return { file, bytes: fs.statSync(file).size, summary };
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}
