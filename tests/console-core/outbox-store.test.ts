/** The outbox on a real SQLite file: schema and pragmas, enqueue with its local effect, and the state machine. */
import BetterSqlite3 from 'better-sqlite3';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createReadCache, overlayActions } from '../../src-main/node/cache/read-cache.ts';
import { CONSOLE_DB_FILE, openConsoleDb, type ConsoleDb } from '../../src-main/node/db/console-database.ts';
import { createOutboxStore, OutboxStateError, type OutboxStore } from '../../src-main/node/outbox/outbox-store.ts';
import { canDiscard, canResubmit, canRetry, OUTBOX_STATES, type OutboxState } from '../../src-shared/console/outbox-states.ts';
import { StaffActionSchema, type StaffAction, type StaffActionInput } from '../../src-shared/console/staff-actions.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { tempDir } from './support.ts';

let dir: string;
let db: ConsoleDb;
let store: OutboxStore;
let clock = 1_000_000;

const action = (input: StaffActionInput): StaffAction => StaffActionSchema.parse(input);
const setStatus = (petitionId: number, status: 'closed' | 'open' = 'closed', baseVersion = 1) =>
  action({ kind: 'petition.setStatus', petitionId, baseVersion, status });
const respond = (petitionId: number, text: string, baseVersion = 1) =>
  action({ kind: 'response.save', petitionId, baseVersion, body: { response_text: text, added_by_role: 'Chancellor of the Exchequer' } });

beforeEach(() => {
  dir = tempDir('outbox-store-');
  db = openConsoleDb(dir);
  store = createOutboxStore(db, { now: () => clock });
});
afterEach(() => db.close());

function states(): string[] {
  return store.list({ limit: 10_000 }).map((e) => e.state);
}

describe('the console database', () => {
  it('opens with WAL, synchronous=FULL, foreign keys and a busy timeout, at the latest schema version', () => {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
  });

  it('keeps queued rows across a reopen and refuses a file from a newer version', () => {
    store.enqueue('2000', [setStatus(1)]);
    db.close();
    db = openConsoleDb(dir);
    expect(createOutboxStore(db, { now: () => clock }).list().map((e) => e.action)).toEqual([setStatus(1)]);
    db.pragma('user_version = 99');
    db.close();
    expect(() => openConsoleDb(dir)).toThrow(/newer version/);
    db = new BetterSqlite3(path.join(dir, CONSOLE_DB_FILE));
  });
});

describe('enqueue', () => {
  it('writes one pending row per action with its own key, base version and target', () => {
    const entries = store.enqueue('2000', [setStatus(1), setStatus(2, 'closed', 7)], { batch: true });
    expect(entries.map((e) => [e.state, e.action.kind, e.actorUserId])).toEqual([
      ['pending', 'petition.setStatus', '2000'],
      ['pending', 'petition.setStatus', '2000'],
    ]);
    expect(entries[0]?.batchId).toBeTruthy();
    expect(entries[1]?.batchId).toBe(entries[0]?.batchId);
    expect(entries[0]?.summary).toBe('Set petition #1 to "Closed"');
    const rows = db.prepare('SELECT idempotency_key, base_version, target_type, target_id FROM outbox ORDER BY seq').all() as Record<string, unknown>[];
    expect(new Set(rows.map((r) => r.idempotency_key)).size).toBe(2);
    expect(rows.map((r) => [r.base_version, r.target_type, r.target_id])).toEqual([[1, 'petition', '1'], [7, 'petition', '2']]);
  });

  it('writes the rows and their local effect in one transaction: both or neither', () => {
    const cache = createReadCache(db);
    const petition = { id: 5, status: 'awaiting_government_response', signatures: 12, governmentResponse: null } as unknown as Petition;
    cache.put('2006', '/api/petitions/5', { ...basePetition(5), ...petition }, clock);
    store.enqueue('2006', [respond(5, 'We will.')], { applyLocally: (a) => cache.applyLocally('2006', a) });
    expect(cache.get('2006', '/api/petitions/5')?.data).toMatchObject({ governmentResponse: 'We will.', status: 'government_response' });

    expect(() =>
      store.enqueue('2006', [respond(5, 'Second.'), setStatus(6)], {
        applyLocally: (a) => {
          if (a.kind === 'petition.setStatus') throw new Error('disk full');
          cache.applyLocally('2006', a);
        },
      }),
    ).toThrow('disk full');
    expect(store.list()).toHaveLength(1);
    expect(cache.get('2006', '/api/petitions/5')?.data).toMatchObject({ governmentResponse: 'We will.' });
  });

  it('refuses an action that fails its schema', () => {
    expect(() => store.enqueue('2000', [{ kind: 'petition.setStatus', petitionId: 1, baseVersion: 1, status: 'archived' } as unknown as StaffAction])).toThrow();
    expect(store.list()).toHaveLength(0);
  });
});

function basePetition(id: number): Petition {
  return {
    id, title: 'T', description: 'D', creator: 'C', creator_id: null, tags: [], category: 'General', termId: null,
    status: 'open', signatures: 0, created: '2026-01-01T00:00:00.000Z', closureReason: null, closedAt: null,
    governmentResponse: null, governmentResponseMeta: null, debateInfo: null, debateInfoMeta: null, version: 1,
  };
}

describe('claiming and recording', () => {
  it('sends one row per target at a time, in order, across targets in parallel, only the actor’s own', () => {
    store.enqueue('2000', [setStatus(1), setStatus(1, 'open'), setStatus(2), setStatus(3)]);
    store.enqueue('2006', [respond(4, 'Not mine to send.')]);
    const claimed = store.claimDue('2000', 10);
    expect(claimed.map((r) => [r.seq, r.state, r.attempts])).toEqual([[1, 'sending', 1], [3, 'sending', 1], [4, 'sending', 1]]);
    expect(store.claimDue('2000', 10)).toEqual([]);
    store.recordResults([{ seq: 1, result: { state: 'applied', status: 200, result: null } }]);
    expect(store.claimDue('2000', 10).map((r) => r.seq)).toEqual([2]);
    expect(store.summary()).toEqual({ queued: 1, sending: 3, attention: 0 });
  });

  it('holds back later rows of a target behind a conflict until a person resolves it', () => {
    store.enqueue('2000', [setStatus(1), setStatus(1, 'open')]);
    const [first] = store.claimDue('2000', 4);
    store.recordResults([{ seq: first?.seq ?? 0, result: { state: 'conflict', status: 412, error: 'changed', serverPetition: basePetition(1) } }]);
    expect(store.claimDue('2000', 4)).toEqual([]);
    const conflict = store.get(first?.id ?? '');
    expect(conflict?.entry).toMatchObject({ state: 'conflict', lastStatus: 412, lastError: 'changed', serverPetition: { id: 1 } });
    store.discard(first?.id ?? '');
    expect(store.claimDue('2000', 4).map((r) => r.action)).toEqual([setStatus(1, 'open')]);
  });

  it('resends rows left in sending by a crash with the same key', () => {
    store.enqueue('2000', [setStatus(1)]);
    const [claimed] = store.claimDue('2000', 1);
    const key = claimed?.idempotencyKey;
    expect(store.recoverSending()).toBe(1);
    const [again] = store.claimDue('2000', 1);
    expect(again?.idempotencyKey).toBe(key);
    expect(again?.attempts).toBe(2);
  });

  it('waits out retry_wait until its time, or at once after makeDueNow', () => {
    store.enqueue('2000', [setStatus(1)]);
    const [row] = store.claimDue('2000', 1);
    store.recordResults([{ seq: row?.seq ?? 0, result: { state: 'retry_wait', status: 503, error: 'busy', nextAttemptAt: clock + 5000 } }]);
    expect(store.nextDueAt('2000')).toBe(clock + 5000);
    expect(store.claimDue('2000', 1)).toEqual([]);
    clock += 5000;
    // Due now: no timer needed, so nothing still to come.
    expect(store.nextDueAt('2000')).toBeNull();
    expect(store.claimDue('2000', 1)).toHaveLength(1);
    store.recordResults([{ seq: row?.seq ?? 0, result: { state: 'retry_wait', status: null, error: 'offline', nextAttemptAt: clock + 60_000 } }]);
    expect(store.makeDueNow('2000')).toBe(1);
    expect(store.claimDue('2000', 1)).toHaveLength(1);
  });

  it('pauses on blocked_auth and resumes that actor’s rows on sign-in', () => {
    store.enqueue('2000', [setStatus(1)]);
    const [row] = store.claimDue('2000', 1);
    store.recordResults([{ seq: row?.seq ?? 0, result: { state: 'blocked_auth', status: 401, error: 'expired' } }]);
    expect(store.summary()).toEqual({ queued: 0, sending: 0, attention: 1 });
    expect(store.unblockAuth('2006')).toBe(0);
    expect(store.unblockAuth('2000')).toBe(1);
    expect(states()).toEqual(['pending']);
  });

  it('sets aside a row that no longer parses as failed, never sending it', () => {
    store.enqueue('2000', [setStatus(1), setStatus(2)]);
    db.prepare(`UPDATE outbox SET payload_json = '{"kind":"petition.setStatus","petitionId":"x"}' WHERE seq = 1`).run();
    expect(store.claimDue('2000', 4).map((r) => r.seq)).toEqual([2]);
    const row = db.prepare('SELECT state, last_error FROM outbox WHERE seq = 1').get() as { state: string; last_error: string };
    expect(row.state).toBe('failed');
    expect(row.last_error).toMatch(/could not be read back/);
    expect(store.summary().attention).toBe(1);
  });
});

describe('what a person may do with a row', () => {
  function rowIn(state: string): string {
    const [entry] = store.enqueue('2000', [setStatus(Math.floor(Math.random() * 1e6) + 1)]);
    db.prepare('UPDATE outbox SET state = ? WHERE id = ?').run(state, entry?.id);
    return entry?.id ?? '';
  }

  const PERMITTED: [OutboxState, boolean, boolean, boolean][] = [
    ['rejected', true, true, true],
    ['failed', true, true, true],
    ['retry_wait', true, true, false],
    ['blocked_auth', true, true, false],
    ['pending', false, true, false],
    ['conflict', false, true, true],
    ['sending', false, false, false],
    ['applied', false, false, false],
    ['cancelled', false, false, false],
  ];

  it('has a row for every state', () => {
    expect(PERMITTED.map(([state]) => state).sort()).toEqual([...OUTBOX_STATES].sort());
  });

  it.each(PERMITTED)('%s: retry %s, discard %s, resubmit %s', (state, retryable, discardable, resubmittable) => {
    // The shared rules the outbox panel offers its buttons by, and the store that enforces them.
    expect([canRetry(state), canDiscard(state), canResubmit(state)]).toEqual([retryable, discardable, resubmittable]);
    const check = (run: () => unknown, allowed: boolean) => {
      if (allowed) expect(run).not.toThrow();
      else expect(run).toThrow(OutboxStateError);
    };
    check(() => store.retry(rowIn(state)), retryable);
    check(() => store.discard(rowIn(state)), discardable);
    check(() => store.resubmit(rowIn(state), '2000', setStatus(9, 'open', 2)), resubmittable);
  });

  it('retry keeps the key and makes the row due; resubmit cancels the old row and adds one with a new key', () => {
    const [entry] = store.enqueue('2000', [setStatus(1)]);
    const key = () => (db.prepare('SELECT idempotency_key AS k FROM outbox WHERE id = ?').get(entry?.id) as { k: string }).k;
    const before = key();
    db.prepare(`UPDATE outbox SET state = 'rejected', last_error = 'no' WHERE id = ?`).run(entry?.id);
    expect(store.retry(entry?.id ?? '').entry).toMatchObject({ state: 'pending', lastError: null });
    expect(key()).toBe(before);

    db.prepare(`UPDATE outbox SET state = 'conflict' WHERE id = ?`).run(entry?.id);
    const [replacement] = store.resubmit(entry?.id ?? '', '2000', setStatus(1, 'closed', 4));
    expect(replacement).toMatchObject({ state: 'pending', supersedesId: entry?.id, action: { baseVersion: 4 } });
    expect(store.get(entry?.id ?? '')?.state).toBe('cancelled');
    expect(store.get(replacement?.id ?? '')?.idempotencyKey).not.toBe(before);
    expect(() => store.retry('no-such-id')).toThrow(OutboxStateError);
  });

  it('prunes old finished rows only, and keeps what a newer row supersedes', () => {
    const [applied, cancelled, conflict, pending] = store.enqueue('2000', [setStatus(1), setStatus(2), setStatus(3), setStatus(4)]);
    db.prepare(`UPDATE outbox SET state = 'applied' WHERE id = ?`).run(applied?.id);
    db.prepare(`UPDATE outbox SET state = 'cancelled' WHERE id = ?`).run(cancelled?.id);
    db.prepare(`UPDATE outbox SET state = 'conflict' WHERE id = ?`).run(conflict?.id);
    const [replacement] = store.resubmit(conflict?.id ?? '', '2000', setStatus(3, 'closed', 2));
    clock += 40 * 24 * 60 * 60 * 1000;
    expect(store.pruneFinished(30 * 24 * 60 * 60 * 1000)).toBe(2);
    expect(store.list().map((e) => e.id).sort()).toEqual([conflict?.id, pending?.id, replacement?.id].sort());
  });

  it('lists rows waiting for other staff and discards one person’s unsent rows on request', () => {
    store.enqueue('2000', [setStatus(1), setStatus(2)]);
    store.enqueue('2006', [respond(3, 'Yes.')]);
    expect(store.queuedForOthers('2000')).toEqual([{ actorUserId: '2006', count: 1 }]);
    expect(store.queuedForOthers(null)).toEqual([{ actorUserId: '2000', count: 2 }, { actorUserId: '2006', count: 1 }]);
    expect(store.discardQueuedFor('2006')).toBe(1);
    expect(store.queuedForOthers('2000')).toEqual([]);
  });
});

describe('offline view', () => {
  it('lays queued actions over petitions, lists and arrays, and drops deleted ones', () => {
    const list = { items: [basePetition(1), basePetition(2), { other: true }], total: 3 };
    const actions = [respond(1, 'Answered offline.'), action({ kind: 'petition.delete', petitionId: 2, baseVersion: 1 })];
    const overlaid = overlayActions(list, actions) as { items: Petition[]; total: number };
    expect(overlaid.items.map((p) => [p.id, p.governmentResponse])).toEqual([[1, 'Answered offline.'], [undefined, undefined]]);
    expect(overlaid.total).toBe(3);
    expect((overlayActions([basePetition(2)], actions) as unknown[]).length).toBe(0);
    expect(overlayActions({ maintenance: false }, actions)).toEqual({ maintenance: false });
  });
});
