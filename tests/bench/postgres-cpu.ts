/**
 * CPU time the local PostgreSQL spends for one database: the sum over its backend processes (their
 * title names the database, see PostgreSQL's update_process_title), read from /proc. With the
 * server's own CPU this splits a request's cost between the node and the database. Linux and a
 * PostgreSQL on this machine only; elsewhere it reads 0 and the bench prints no figure.
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

/** Microseconds of CPU (user + system) the database's live backends have used so far. */
export function postgresCpuMicros(database: string): number {
  if (os.platform() !== 'linux') return 0;
  let ticks = 0;
  for (const pid of backendPids(database)) {
    try {
      // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The backend ended between listing and reading.
    }
  }
  return (ticks / TICKS_PER_SECOND) * 1_000_000;
}
