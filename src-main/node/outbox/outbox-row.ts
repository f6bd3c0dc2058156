/**
 * An outbox row as stored (snake_case columns, JSON payloads) and as the store hands it out: parsed
 * with zod on every read, because the file is a boundary (it may be damaged or written by another
 * version). A row that does not parse throws; the store sets it aside as failed.
 */
import { z } from 'zod';
import { OutboxStateSchema, type OutboxEntry, type OutboxState } from '../../../src-shared/console/outbox.ts';
import { StaffActionSchema, type StaffAction } from '../../../src-shared/console/staff-actions.ts';
import { PetitionSchema } from '../../../src-shared/domain/schemas.ts';
import { summarize } from './action-effects.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const StoredRowSchema = z.object({
  seq: z.number().int(),
  id: z.string(),
  idempotency_key: z.string(),
  actor_user_id: z.string(),
  kind: z.string(),
  target_type: z.string(),
  target_id: z.string(),
  batch_id: z.string().nullable(),
  payload_json: z.string(),
  base_version: z.number().int().nullable(),
  state: OutboxStateSchema,
  attempts: z.number().int(),
  next_attempt_at: z.number().int(),
  last_attempt_at: z.number().int().nullable(),
  last_http_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  server_petition_json: z.string().nullable(),
  result_json: z.string().nullable(),
  supersedes_id: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
});

/** A row as the sync engine sends it. */
export interface OutboxRow {
  seq: number;
  id: string;
  idempotencyKey: string;
  actorUserId: string;
  action: StaffAction;
  batchId: string | null;
  state: OutboxState;
  attempts: number;
  entry: OutboxEntry;
}

/** A stored row, parsed: its action and, for the renderer, its entry. */
export function parseOutboxRow(raw: unknown): OutboxRow {
  const stored = StoredRowSchema.parse(raw);
  const action = StaffActionSchema.parse(JSON.parse(stored.payload_json));
  const serverPetition = stored.server_petition_json
    ? PetitionSchema.parse(JSON.parse(stored.server_petition_json))
    : null;
  const entry: OutboxEntry = {
    id: stored.id,
    seq: stored.seq,
    action,
    summary: summarize(action),
    actorUserId: stored.actor_user_id,
    batchId: stored.batch_id,
    state: stored.state,
    attempts: stored.attempts,
    createdAt: iso(stored.created_at) as string,
    updatedAt: iso(stored.updated_at) as string,
    nextAttemptAt: stored.state === 'pending' || stored.state === 'retry_wait' ? iso(stored.next_attempt_at) : null,
    lastStatus: stored.last_http_status,
    lastError: stored.last_error,
    serverPetition,
    supersedesId: stored.supersedes_id,
  };
  return {
    seq: stored.seq,
    id: stored.id,
    idempotencyKey: stored.idempotency_key,
    actorUserId: stored.actor_user_id,
    action,
    batchId: stored.batch_id,
    state: stored.state,
    attempts: stored.attempts,
    entry,
  };
}
