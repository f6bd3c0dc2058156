/**
 * CPU time the local PostgreSQL spends for one database: the sum over its backend processes (their
 * title names the database, see PostgreSQL's update_process_title), read from /proc. With the
 * server's own CPU this splits a request's cost between the node and the database. Linux and a
 * PostgreSQL on this machine only; elsewhere it reads NaN and the bench prints no figure.
 */
import fs from 'node:fs';
import os from 'node:os';

const TICKS_PER_SECOND = 100;

function backendPids(database: string): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      return title.startsWith('postgres: ') && title.split(' ').includes(database) ? [Number(entry)] : [];
    } catch {
      return [];
    }
  });
}

/** Each database's backends as last read (keyed by pid and start time, as pids are reused), and what the ones gone since had used. */
const lastRead = new Map<string, Map<string, number>>();
const usedByGone = new Map<string, number>();

/**
 * Microseconds of CPU (user + system) the database's backends have used so far. A backend that has
 * exited since the last call (a pool closing an idle connection) keeps counting what it had used
 * when last read, so the figure never goes down; what it used between that read and its exit is
 * lost (for an idle connection, nothing).
 */
export function postgresCpuMicros(database: string): number {
  if (os.platform() !== 'linux') return Number.NaN;
  const now = new Map<string, number>();
  for (const pid of backendPids(database)) {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, starttime the 20th.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      now.set(`${pid}@${fields[19]}`, Number(fields[11]) + Number(fields[12]));
    } catch {
      // The backend ended between listing and reading.
    }
  }
  let gone = usedByGone.get(database) ?? 0;
  for (const [backend, ticks] of lastRead.get(database) ?? []) if (!now.has(backend)) gone += ticks;
  usedByGone.set(database, gone);
  lastRead.set(database, now);
  let ticks = gone;
  for (const used of now.values()) ticks += used;
  return (ticks / TICKS_PER_SECOND) * 1_000_000;
}
