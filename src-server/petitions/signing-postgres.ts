/**
 * Signing on PostgreSQL, where several server processes write one database at once.
 *
 * The signature rows are keyed by (petition, user), so the database refuses a second one whatever
 * node it comes from. Calls for a petition that is being written wait for the next batch, so under
 * load each batch carries many signatures (group commit, as on SQLite); batches of other petitions
 * run beside it (pump, below). One batch is one transaction that:
 *  1. locks the batch's petition rows (ascending id, so two nodes' batches cannot deadlock each other);
 *  2. reads which of the batch's (petition, user) pairs already exist: with the petitions locked no
 *     other signing transaction can change them, so each call's answer is decided in arrival order;
 *  3. writes the rows that change, then one UPDATE per petition with the exact new count and the
 *     status the shared automaticStatus rule gives.
 * So the stored count is exact at every commit (every reply, on any node, shows it), a threshold
 * status changes in the same transaction as the signature that crosses it, and a petition under load
 * gets one count UPDATE per batch, not one per signature (the UK service's lesson: never +1 on the
 * hot row). Nothing is held in memory between batches, so nothing is lost when a node dies.
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { SignResult, User } from '../../src-shared/domain/schemas.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import type { Database } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import { readDebateInfo } from './petition-record.ts';
import type { SignatureCounts } from './signature-counts.ts';
import type { SigningService } from './signing.ts';

type SignAction = 'sign' | 'unsign';

interface SignCall {
  action: SignAction;
  petitionId: number;
  user: User;
  stamp: string;
  settle: (outcome: SignResult | Error) => void;
}

interface PetitionState {
  count: number;
  status: string;
  readonly initialCount: number;
  readonly initialStatus: string;
  statusChangedAt: string | null;
  readonly governmentResponse: string | null;
  readonly debateInfo: string | null;
}

interface PairChange {
  petitionId: number;
  userId: string;
  existed: boolean;
  /** The row as it must end up: null when it must not exist. */
  final: { username: string; displayName: string; signedAt: string } | null;
  /** Whether the row must be rewritten (signed again after an unsign in the same batch). */
  rewritten: boolean;
}

/** Deadlocks (with a staff edit or the closure pass locking petitions in another order) are retried. */
const RETRIED_CODES = new Set(['40P01', '40001']);
const ATTEMPTS = 3;
/** Batches one node writes at once (each holds one pooled connection while it runs). */
const MAX_BATCHES_IN_FLIGHT = 4;

const pairKey = (petitionId: number, userId: string) => `${petitionId}\u0000${userId}`;

/** The stored counts are exact after every batch: nothing pending, nothing to add. */
export const exactStoredCounts: SignatureCounts = {
  live: (_petitionId, stored) => stored,
  withLive: (row) => row,
  shouldDefer: () => false,
  record: () => () => {},
  settle: async () => {},
  recover: async () => {},
  start: () => {},
  stop: async () => {},
  stats: () => ({ pendingPetitions: 0, flushes: 0, rowsWritten: 0, millisecondsSpent: 0 }),
};

export function createPostgresSigningService(deps: { db: Kysely<Database>; now: () => Date }): SigningService {
  const { db, now } = deps;
  let queue: SignCall[] = [];
  let scheduled = false;
  let inFlight = 0;
  const busyPetitions = new Set<number>();

  async function writeBatch(trx: Transaction<Database>, batch: SignCall[]): Promise<(SignResult | HttpError)[]> {
    const ids = [...new Set(batch.map((call) => call.petitionId))].sort((a, b) => a - b);
    const rows = await trx
      .selectFrom('petitions')
      .select(['id', 'signature_count', 'status', 'government_response', 'debate_info'])
      .where('id', 'in', ids)
      .orderBy('id')
      .forUpdate()
      .execute();
    const petitions = new Map<number, PetitionState>(
      rows.map((row) => [
        row.id,
        {
          count: row.signature_count,
          status: row.status,
          initialCount: row.signature_count,
          initialStatus: row.status,
          statusChangedAt: null,
          governmentResponse: row.government_response,
          debateInfo: row.debate_info,
        },
      ]),
    );

    const open = batch.filter((call) => petitions.get(call.petitionId)?.status !== 'closed' && petitions.has(call.petitionId));
    const existing = new Set<string>();
    if (open.length) {
      // Joined with the pairs as a table, so each is one primary-key lookup.
      const found = await sql<{ petition_id: number; user_id: string }>`SELECT signatures.petition_id, signatures.user_id
        FROM unnest(${open.map((call) => call.petitionId)}::int[], ${open.map((call) => call.user.id)}::text[]) AS pair(petition_id, user_id)
        JOIN signatures ON signatures.petition_id = pair.petition_id AND signatures.user_id = pair.user_id`.execute(trx);
      for (const row of found.rows) existing.add(pairKey(row.petition_id, row.user_id));
    }

    const present = new Set(existing);
    const changes = new Map<string, PairChange>();
    const outcomes = batch.map((call): SignResult | HttpError => {
      const petition = petitions.get(call.petitionId);
      if (!petition) return new HttpError(404, ERRORS.petitionNotFound);
      if (petition.status === 'closed') return new HttpError(409, ERRORS.petitionClosed);
      const key = pairKey(call.petitionId, call.user.id);
      const signing = call.action === 'sign';
      if (present.has(key) === signing) return new HttpError(409, signing ? ERRORS.alreadySigned : ERRORS.notSigned);

      const change = changes.get(key) ?? { petitionId: call.petitionId, userId: call.user.id, existed: existing.has(key), final: null, rewritten: false };
      if (signing) {
        present.add(key);
        change.final = { username: call.user.username, displayName: call.user.displayName, signedAt: call.stamp };
        if (change.existed) change.rewritten = true;
      } else {
        present.delete(key);
        change.final = null;
      }
      changes.set(key, change);

      petition.count += signing ? 1 : -1;
      const status = automaticStatus({
        status: petition.status,
        signatures: petition.count,
        governmentResponse: petition.governmentResponse,
        debateInfo: readDebateInfo(petition.debateInfo),
      });
      if (status !== petition.status) {
        petition.status = status;
        petition.statusChangedAt = call.stamp;
      }
      return { signatures: petition.count, signed: signing };
    });

    const removed = [...changes.values()].filter((change) => change.existed && (change.final === null || change.rewritten));
    const added = [...changes.values()].filter((change) => change.final !== null && (!change.existed || change.rewritten));
    if (removed.length) {
      await sql`DELETE FROM signatures
        USING unnest(${removed.map((change) => change.petitionId)}::int[], ${removed.map((change) => change.userId)}::text[]) AS pair(petition_id, user_id)
        WHERE signatures.petition_id = pair.petition_id AND signatures.user_id = pair.user_id`.execute(trx);
    }
    if (added.length) {
      await trx
        .insertInto('signatures')
        .values(
          added.map(({ petitionId, userId, final }) => ({
            petition_id: petitionId,
            user_id: userId,
            username: final!.username,
            display_name: final!.displayName,
            signed_at: final!.signedAt,
          })),
        )
        .execute();
    }
    // One UPDATE for every petition the batch changed, whatever their number.
    const changed = [...petitions].filter(([, p]) => p.count !== p.initialCount || p.status !== p.initialStatus);
    if (changed.length) {
      // Crossing a threshold changes what staff see, so it bumps the version; a bare count change does not.
      const statusChanged = (p: PetitionState) => p.status !== p.initialStatus && p.statusChangedAt !== null;
      await sql`UPDATE petitions SET
          signature_count = changed.count,
          status = changed.status,
          version = petitions.version + changed.bump,
          updated_at = coalesce(changed.updated_at, petitions.updated_at)
        FROM unnest(${changed.map(([id]) => id)}::int[], ${changed.map(([, p]) => p.count)}::int[], ${changed.map(([, p]) => p.status)}::text[],
                    ${changed.map(([, p]) => (statusChanged(p) ? 1 : 0))}::int[], ${changed.map(([, p]) => (statusChanged(p) ? p.statusChangedAt : null))}::text[])
          AS changed(id, count, status, bump, updated_at)
        WHERE petitions.id = changed.id`.execute(trx);
    }
    return outcomes;
  }

  async function writeWithRetries(batch: SignCall[]): Promise<(SignResult | HttpError)[]> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await db.transaction().execute((trx) => writeBatch(trx, batch));
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (attempt >= ATTEMPTS || !code || !RETRIED_CODES.has(code)) throw error;
      }
    }
  }

  /**
   * Starts batches while fewer than MAX_BATCHES_IN_FLIGHT are being written (a commit waits for the
   * disk; meanwhile other petitions' signatures are written). A petition is in one batch at a time,
   * so its calls are still decided in arrival order, and batches never wait for each other's locks.
   */
  function pump(): void {
    while (queue.length && inFlight < MAX_BATCHES_IN_FLIGHT) {
      const batch: SignCall[] = [];
      const waiting: SignCall[] = [];
      for (const call of queue) (busyPetitions.has(call.petitionId) ? waiting : batch).push(call);
      if (!batch.length) return;
      queue = waiting;
      const petitionIds = new Set(batch.map((call) => call.petitionId));
      for (const id of petitionIds) busyPetitions.add(id);
      inFlight += 1;
      writeWithRetries(batch)
        .then(
          (outcomes) => batch.forEach((call, index) => call.settle(outcomes[index]!)),
          (error: unknown) => {
            const failure = error instanceof Error ? error : new Error(String(error));
            for (const call of batch) call.settle(failure);
          },
        )
        .finally(() => {
          inFlight -= 1;
          for (const id of petitionIds) busyPetitions.delete(id);
          pump();
        });
    }
  }

  function submit(action: SignAction, user: User, petitionId: number): Promise<SignResult> {
    return new Promise((resolve, reject) => {
      queue.push({
        action,
        petitionId,
        user,
        stamp: now().toISOString(),
        settle: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)),
      });
      if (!scheduled) {
        scheduled = true;
        // Calls that arrive in this turn of the event loop join one batch.
        setImmediate(() => {
          scheduled = false;
          pump();
        });
      }
    });
  }

  return {
    sign: (user: User, petitionId: number) => submit('sign', user, petitionId),
    unsign: (user: User, petitionId: number) => submit('unsign', user, petitionId),
  };
}
