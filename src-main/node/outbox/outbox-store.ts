/**
 * The outbox table: one row per staff action, with its own Idempotency-Key and the petition version
 * it was based on, moving through the states of docs/console-outbox.md#outbox-states. Every change
 * is one SQLite transaction; rows are parsed with zod when read back (the file is a boundary).
 */
import { randomUUID } from 'node:crypto';
import { ATTENTION_STATES, type OutboxEntry, type OutboxState, type OutboxSummary } from '../../../src-shared/console/outbox.ts';
import { canDiscard, canResubmit, canRetry } from '../../../src-shared/console/outbox-states.ts';
import { actionTarget, StaffActionSchema, type StaffAction } from '../../../src-shared/console/staff-actions.ts';
import type { Petition } from '../../../src-shared/domain/schemas.ts';
import type { ConsoleDb } from '../db/console-database.ts';
import { parseOutboxRow, type OutboxRow } from './outbox-row.ts';

/** What one send attempt ended in, as the engine records it. */
export type SendResult =
  | { state: 'applied'; status: number; result: unknown }
  | { state: 'retry_wait'; status: number | null; error: string; nextAttemptAt: number }
  | { state: 'blocked_auth'; status: number; error: string }
  | { state: 'conflict'; status: number; error: string; serverPetition: Petition | null }
  | { state: 'rejected' | 'failed'; status: number | null; error: string };

export class OutboxStateError extends Error {
  readonly code: 'not_found' | 'invalid_state';
  constructor(code: 'not_found' | 'invalid_state', message: string) {
    super(message);
    this.name = 'OutboxStateError';
    this.code = code;
  }
}

const UNSENT: readonly OutboxState[] = ['pending', 'retry_wait', 'blocked_auth', 'sending'];

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(',');

export interface OutboxStoreOptions {
  now: () => number;
}

export type OutboxStore = ReturnType<typeof createOutboxStore>;

export function createOutboxStore(db: ConsoleDb, options: OutboxStoreOptions) {
  const { now } = options;

  const quarantineRow = db.prepare(`
    UPDATE outbox SET state = 'failed', last_error = ?, updated_at = ? WHERE seq = ? AND state <> 'failed'`);

  /**
   * Reads rows, setting aside any that no longer parse (a damaged file, a downgrade): such a row is
   * marked failed with the reason, so it counts as needing attention, and is never sent.
   */
  function readable(raws: unknown[]): OutboxRow[] {
    const rows: OutboxRow[] = [];
    for (const raw of raws) {
      try {
        rows.push(parseOutboxRow(raw));
      } catch (error) {
        const seq = (raw as { seq?: unknown }).seq;
        if (typeof seq === 'number') quarantineRow.run(`This queued action could not be read back: ${String(error).slice(0, 500)}`, now(), seq);
      }
    }
    return rows;
  }

  const insertRow = db.prepare(`
    INSERT INTO outbox (id, idempotency_key, actor_user_id, kind, target_type, target_id, batch_id, payload_json,
      base_version, state, next_attempt_at, supersedes_id, created_at, updated_at)
    VALUES (@id, @key, @actor, @kind, @targetType, @targetId, @batchId, @payload, @baseVersion, 'pending', @at,
      @supersedes, @at, @at)`);
  const selectById = db.prepare('SELECT * FROM outbox WHERE id = ?');
  const selectBySeq = db.prepare('SELECT * FROM outbox WHERE seq = ?');

  function requireRow(id: string): OutboxRow {
    const raw = selectById.get(id);
    if (!raw) throw new OutboxStateError('not_found', 'No queued action with this id');
    return parseOutboxRow(raw);
  }

  function setState(id: string, allowed: (state: OutboxState) => boolean, to: OutboxState, extra: string = ''): OutboxRow {
    const row = requireRow(id);
    if (!allowed(row.state)) {
      throw new OutboxStateError('invalid_state', `An action that is ${row.state.replace('_', ' ')} cannot be changed this way`);
    }
    db.prepare(`UPDATE outbox SET state = ?, updated_at = ?${extra} WHERE seq = ?`).run(to, now(), row.seq);
    return parseOutboxRow(selectBySeq.get(row.seq));
  }

  // Eligible: due, this actor's, and nothing earlier for the same target still on its way or
  // waiting for a person (serial per target; a conflict holds back what was queued after it).
  const selectDue = db.prepare(`
    SELECT o.* FROM outbox o INDEXED BY outbox_queue
    WHERE o.state IN ('pending', 'retry_wait') AND o.next_attempt_at <= @now AND o.actor_user_id = @actor
      AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.target_type = o.target_type AND p.target_id = o.target_id
                      AND p.seq < o.seq AND p.state NOT IN ('applied', 'cancelled'))
    ORDER BY o.seq LIMIT @limit`);
  const claimRow = db.prepare(`
    UPDATE outbox SET state = 'sending', attempts = attempts + 1, last_attempt_at = @now, updated_at = @now
    WHERE seq = @seq AND state IN ('pending', 'retry_wait')`);
  const recordRow = db.prepare(`
    UPDATE outbox SET state = @state, last_http_status = @status, last_error = @error, next_attempt_at = @next,
      server_petition_json = COALESCE(@serverPetition, server_petition_json), result_json = @result, updated_at = @now
    WHERE seq = @seq AND state = 'sending'`);

  const countByState = db.prepare('SELECT state, COUNT(*) AS n FROM outbox GROUP BY state');
  const selectNextDue = db.prepare(
    `SELECT MIN(next_attempt_at) AS at FROM outbox WHERE actor_user_id = ? AND state IN ('pending', 'retry_wait') AND next_attempt_at > ?`,
  );
  // Prepared once: the sync engine switches durability around every bookkeeping transaction.
  const relaxedSync = db.prepare('PRAGMA synchronous = NORMAL');
  const fullSync = db.prepare('PRAGMA synchronous = FULL');
  const releaseRow = db.prepare(`
    UPDATE outbox SET state = 'pending', attempts = MAX(attempts - 1, 0), updated_at = @now WHERE seq = @seq AND state = 'sending'`);

  function claimRows(actorUserId: string, limit: number): OutboxRow[] {
    const at = now();
    const due = readable(selectDue.all({ now: at, actor: actorUserId, limit }));
    return due.map((row) => {
      claimRow.run({ now: at, seq: row.seq });
      // What the UPDATE just wrote, without reading and parsing the row again.
      const attempts = row.attempts + 1;
      const stamp = new Date(at).toISOString();
      return { ...row, state: 'sending', attempts, entry: { ...row.entry, state: 'sending', attempts, updatedAt: stamp, nextAttemptAt: null } };
    });
  }

  function recordAll(results: readonly { seq: number; result: SendResult }[]): void {
    const at = now();
    for (const { seq, result } of results) {
      recordRow.run({
        seq,
        state: result.state,
        status: result.status,
        error: result.state === 'applied' ? null : result.error,
        next: result.state === 'retry_wait' ? result.nextAttemptAt : at,
        serverPetition: result.state === 'conflict' && result.serverPetition ? JSON.stringify(result.serverPetition) : null,
        result: result.state === 'applied' && result.result !== undefined ? JSON.stringify(result.result) : null,
        now: at,
      });
    }
  }

  /**
   * Queues actions for `actorUserId` in one transaction with `applyLocally` (their effect on the
   * local read cache), so a crash keeps both or neither.
   */
  function enqueue(
    actorUserId: string,
    actions: readonly StaffAction[],
    opts: { batch?: boolean; supersedesId?: string | null; applyLocally?: (action: StaffAction) => void } = {},
  ): OutboxEntry[] {
    const parsed = actions.map((action) => StaffActionSchema.parse(action));
    const batchId = opts.batch ? randomUUID() : null;
    const at = now();
    return db.transaction(() => {
      return parsed.map((action) => {
        const target = actionTarget(action);
        const id = randomUUID();
        insertRow.run({
          id,
          key: randomUUID(),
          actor: actorUserId,
          kind: action.kind,
          targetType: target.type,
          targetId: target.id,
          batchId,
          payload: JSON.stringify(action),
          baseVersion: 'baseVersion' in action ? action.baseVersion : null,
          at,
          supersedes: opts.supersedesId ?? null,
        });
        opts.applyLocally?.(action);
        return requireRow(id).entry;
      });
    })();
  }

  return {
    enqueue,

    get(id: string): OutboxRow | null {
      const raw = selectById.get(id);
      return raw ? parseOutboxRow(raw) : null;
    },

    list(filter: { states?: readonly OutboxState[]; batchId?: string; limit?: number } = {}): OutboxEntry[] {
      const where: string[] = [];
      const params: unknown[] = [];
      if (filter.states?.length) {
        where.push(`state IN (${placeholders(filter.states)})`);
        params.push(...filter.states);
      }
      if (filter.batchId) {
        where.push('batch_id = ?');
        params.push(filter.batchId);
      }
      const sql = `SELECT * FROM outbox ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq LIMIT ?`;
      return readable(db.prepare(sql).all(...params, filter.limit ?? 500)).map((row) => row.entry);
    },

    summary(): OutboxSummary {
      const counts = new Map<string, number>();
      for (const row of countByState.all() as { state: string; n: number }[]) {
        counts.set(row.state, row.n);
      }
      const count = (states: readonly string[]) => states.reduce((sum, state) => sum + (counts.get(state) ?? 0), 0);
      return { queued: count(['pending', 'retry_wait']), sending: count(['sending']), attention: count(ATTENTION_STATES) };
    },

    /**
     * Start-up housekeeping: finished rows (applied, cancelled) older than `olderThanMs` are
     * deleted, unless a newer row points at them. Nothing that still needs sending or a person is.
     */
    pruneFinished(olderThanMs: number): number {
      return db
        .prepare(
          `DELETE FROM outbox WHERE state IN ('applied', 'cancelled') AND updated_at < ?
           AND id NOT IN (SELECT supersedes_id FROM outbox WHERE supersedes_id IS NOT NULL)`,
        )
        .run(now() - olderThanMs).changes;
    },

    /** Start-up: rows a crash left in `sending` go again, with the same key (the server replays them). */
    recoverSending(): number {
      return db.prepare(`UPDATE outbox SET state = 'pending', next_attempt_at = ?, updated_at = ? WHERE state = 'sending'`).run(now(), now())
        .changes;
    },

    /** Claims up to `limit` due rows of `actorUserId` (at most one per target) and marks them `sending`. */
    claimDue(actorUserId: string, limit: number): OutboxRow[] {
      if (limit <= 0) return [];
      return db.transaction(() => claimRows(actorUserId, limit))();
    },

    /** Records the outcomes of several attempts in one transaction (one fsync for all of them). */
    recordResults(results: readonly { seq: number; result: SendResult }[]): void {
      if (results.length === 0) return;
      db.transaction(() => recordAll(results))();
    },

    /**
     * The sync engine's bookkeeping in one transaction, however many rows, and without an fsync
     * (see below): records finished attempts, hands back claimed rows that were not sent (pending again, the attempt not
     * counted), and claims up to `claim.limit` due rows.
     */
    settleAndClaim(
      results: readonly { seq: number; result: SendResult }[],
      unsent: readonly number[],
      claim: { actorUserId: string; limit: number } | null,
    ): OutboxRow[] {
      if (results.length === 0 && unsent.length === 0 && (!claim || claim.limit <= 0)) return [];
      // Bookkeeping only: should a power cut undo it, the rows are `pending` or `sending` again and
      // are resent with the same key, and the server replays its answer. So it skips the fsync that
      // queued actions and people's decisions get (synchronous=FULL), which would cap sync at about
      // one commit per disk flush.
      relaxedSync.run();
      try {
        return db.transaction(() => {
          recordAll(results);
          const at = now();
          for (const seq of unsent) releaseRow.run({ seq, now: at });
          return claim && claim.limit > 0 ? claimRows(claim.actorUserId, claim.limit) : [];
        })();
      } finally {
        fullSync.run();
      }
    },

    /** The next moment a waiting row of `actorUserId` becomes due, for the engine's timer. */
    nextDueAt(actorUserId: string): number | null {
      // Only times still to come: rows already due but held back behind their target get going
      // when the row ahead of them finishes, not from a timer.
      return (selectNextDue.get(actorUserId, now()) as { at: number | null }).at;
    },

    /** Back online or "Sync now": waiting rows of `actorUserId` are due at once (backoff starts over). */
    makeDueNow(actorUserId: string): number {
      return db
        .prepare(`UPDATE outbox SET next_attempt_at = ? WHERE actor_user_id = ? AND state = 'retry_wait' AND next_attempt_at > ?`)
        .run(now(), actorUserId, now()).changes;
    },

    /**
     * The backend answers again: rows of `actorUserId` that waited for it (no answer, 502, 503,
     * 504) are due at once. Rows that back off after a real answer (429, 500…) keep their time.
     */
    releaseWaitingForBackend(actorUserId: string): number {
      return db
        .prepare(
          `UPDATE outbox SET next_attempt_at = ? WHERE actor_user_id = ? AND state = 'retry_wait' AND next_attempt_at > ?
             AND (last_http_status IS NULL OR last_http_status IN (502, 503, 504))`,
        )
        .run(now(), actorUserId, now()).changes;
    },

    /** Sign-in again: the rows a 401 paused go back in the queue. */
    unblockAuth(actorUserId: string): number {
      return db
        .prepare(`UPDATE outbox SET state = 'pending', next_attempt_at = ?, updated_at = ? WHERE actor_user_id = ? AND state = 'blocked_auth'`)
        .run(now(), now(), actorUserId).changes;
    },

    /** A person asks to send a row again: same key (the payload is unchanged), due now. */
    retry(id: string): OutboxRow {
      return setState(id, canRetry, 'pending', `, next_attempt_at = ${now()}, last_error = NULL`);
    },

    discard(id: string): OutboxRow {
      return setState(id, canDiscard, 'cancelled');
    },

    /**
     * Resolves a conflict (or a refusal) with a new action: the old row is cancelled and a new one,
     * with a new key, supersedes it, in one transaction.
     */
    resubmit(id: string, actorUserId: string, action: StaffAction, applyLocally?: (action: StaffAction) => void): OutboxEntry[] {
      return db.transaction(() => {
        setState(id, canResubmit, 'cancelled');
        return enqueue(actorUserId, [action], { supersedesId: id, applyLocally });
      })();
    },

    /** Queued petition actions not yet applied for these petitions, oldest first (the offline view). */
    unappliedPetitionActions(actorUserId: string, petitionIds: readonly number[]): StaffAction[] {
      if (petitionIds.length === 0) return [];
      const ids = [...new Set(petitionIds)].map(String);
      const actions: StaffAction[] = [];
      // In chunks, to stay far below SQLite's limit on bound parameters.
      for (let start = 0; start < ids.length; start += 500) {
        const chunk = ids.slice(start, start + 500);
        const raws = db
          .prepare(
            `SELECT * FROM outbox WHERE actor_user_id = ? AND target_type = 'petition' AND target_id IN (${placeholders(chunk)})
             AND state IN (${placeholders(UNSENT)}) ORDER BY seq`,
          )
          .all(actorUserId, ...chunk, ...UNSENT);
        actions.push(...readable(raws).map((row) => row.action));
      }
      return actions;
    },

    queuedForOthers(userId: string | null): { actorUserId: string; count: number }[] {
      return (
        db
          .prepare(
            `SELECT actor_user_id AS actorUserId, COUNT(*) AS count FROM outbox
             WHERE state IN (${placeholders(UNSENT)}) AND (? IS NULL OR actor_user_id <> ?)
             GROUP BY actor_user_id ORDER BY actor_user_id`,
          )
          .all(...UNSENT, userId, userId) as { actorUserId: string; count: number }[]
      );
    },

    /** Sign-out with "discard queued": that user's rows that never reached the server are cancelled. */
    discardQueuedFor(userId: string): number {
      return db
        .prepare(
          `UPDATE outbox SET state = 'cancelled', updated_at = ? WHERE actor_user_id = ?
           AND state IN ('pending', 'retry_wait', 'blocked_auth')`,
        )
        .run(now(), userId).changes;
    },
  };
}
