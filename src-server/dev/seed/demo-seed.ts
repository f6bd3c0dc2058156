/**
 * Seeds a new development database with the demo content (demo-data.ts): its users, terms and
 * petitions, with signatures from demo users spread over time so the hourly chart has a shape.
 * Everything is relative to `now` and drawn from a fixed pseudo-random sequence, so two seeds at
 * the same instant are identical.
 */
import type { Kysely, Transaction } from 'kysely';
import type { PetitionStatus } from '../../../src-shared/domain/constants.ts';
import { DEBATE_THRESHOLD, DEFAULT_CATEGORY, DEFAULT_DEBATE_LOCATION, RESPONSE_THRESHOLD } from '../../../src-shared/domain/constants.ts';
import type { ContributionMeta, DebateInfo } from '../../../src-shared/domain/schemas.ts';
import { automaticStatus } from '../../../src-shared/rules/classification.ts';
import { londonDay } from '../../../src-shared/rules/dates.ts';
import type { Database } from '../../db/schema.ts';
import { DEMO_PETITIONS, DEMO_TERMS, DEMO_USERS, MINISTERS, type DemoDebate, type DemoPetition, type MinisterKey, type TermKey } from './demo-data.ts';
import { randomSequence } from './random-sequence.ts';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

interface TermPlan {
  id: number;
  start: number;
  end: number;
}

function meta(by: MinisterKey, at: number): ContributionMeta {
  const minister = MINISTERS[by];
  return { addedBy: minister.name, addedByRole: minister.role, addedAt: new Date(at).toISOString(), editedBy: null, editedByRole: null, editedAt: null };
}

function debateInfo(debate: DemoDebate, now: number): DebateInfo {
  const date = debate.inDays === null ? null : londonDay(new Date(now + debate.inDays * DAY_MS));
  return {
    status: debate.status,
    date,
    location: DEFAULT_DEBATE_LOCATION,
    hansardLink: debate.status === 'debated' ? `https://hansard.parliament.uk/commons/${date}/debates/demo-petition-debate` : null,
    notDebatedReason: debate.status === 'not_debated' ? (debate.reason ?? null) : null,
  };
}

/**
 * Signing times with a shape: a burst in the first day after creation that tails off, and more
 * signatures in the UK daytime than at night.
 */
function signingTimes(count: number, from: number, until: number, random: () => number): number[] {
  const times: number[] = [];
  const span = Math.max(until - from, HOUR_MS);
  while (times.length < count) {
    const offset = Math.min(span, -Math.log(1 - random()) * Math.min(span / 3, 2 * DAY_MS));
    const at = from + offset;
    const hour = new Date(at).getUTCHours();
    const daytime = hour >= 8 && hour <= 22;
    if (daytime || random() < 0.3) times.push(Math.min(at, until - 60_000));
  }
  return times.sort((a, b) => a - b);
}

async function insertTerms(trx: Transaction<Database>, now: number, stamp: string): Promise<Record<TermKey, TermPlan>> {
  const at = (days: number) => now + days * DAY_MS;
  const ids: Partial<Record<keyof typeof DEMO_TERMS, number>> = {};
  for (const [key, term] of Object.entries(DEMO_TERMS) as [keyof typeof DEMO_TERMS, (typeof DEMO_TERMS)[keyof typeof DEMO_TERMS]][]) {
    const row = await trx
      .insertInto('terms')
      .values({
        name: term.name,
        start_date: londonDay(new Date(at(term.startDays))),
        end_date: londonDay(new Date(at(term.endDays))),
        status: term.status,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids[key] = row.id;
  }
  const plan = (key: TermKey): TermPlan => ({ id: ids[key]!, start: at(DEMO_TERMS[key].startDays), end: at(DEMO_TERMS[key].endDays) });
  return { previous: plan('previous'), current: plan('current') };
}

async function insertPetition(
  trx: Transaction<Database>,
  spec: DemoPetition,
  index: number,
  terms: Record<TermKey, TermPlan>,
  now: number,
  random: () => number,
): Promise<void> {
  const term = terms[spec.term];
  const created =
    spec.term === 'current'
      ? now - spec.ageDays * DAY_MS - Math.floor(random() * 6 * HOUR_MS) - HOUR_MS
      : term.start + spec.ageDays * DAY_MS + Math.floor(random() * 6 * HOUR_MS);
  const closedAt =
    spec.closed === 'three_weeks_insufficient_signatures'
      ? created + 21 * DAY_MS + 2 * HOUR_MS
      : spec.closed === 'term_ended'
        ? term.end + DAY_MS
        : null;
  const signingEnds = closedAt ?? now;
  const creator = DEMO_USERS[index % DEMO_USERS.length]!;
  const others = DEMO_USERS.filter((user) => user.id !== creator.id);
  // A rotating slice of the other demo users, so different petitions have different signers.
  const start = (index * 7) % others.length;
  const signers = [creator, ...[...others.slice(start), ...others.slice(0, start)].slice(0, spec.signatures - 1)];
  const times = [created, ...signingTimes(signers.length - 1, created + 5 * 60_000, signingEnds, random)];

  const response = spec.response ? { text: spec.response.text, meta: meta(spec.response.by, created + 3 * DAY_MS) } : null;
  const debate = spec.debate ? debateInfo(spec.debate, now) : null;
  const debateMeta = spec.debate ? meta(spec.debate.status === 'scheduled' ? 'leader' : 'pm', created + 5 * DAY_MS) : null;
  const status: PetitionStatus = spec.closed
    ? 'closed'
    : automaticStatus({ status: 'open', signatures: signers.length, governmentResponse: response?.text ?? null, debateInfo: debate });
  const createdAt = new Date(created).toISOString();
  // The queues' clocks start at the 10th and 20th signature (migration 0020's trigger would say "now").
  const signedInOrder = [...times].sort((a, b) => a - b);
  const reached = (n: number) => (signedInOrder.length >= n ? new Date(signedInOrder[n - 1]!).toISOString() : null);

  const row = await trx
    .insertInto('petitions')
    .values({
      title: spec.title,
      description: spec.description,
      creator_name: creator.displayName,
      creator_id: creator.id,
      tags: JSON.stringify(spec.tags),
      category: DEFAULT_CATEGORY,
      term_id: term.id,
      status,
      closure_reason: spec.closed ?? null,
      closed_at: closedAt === null ? null : new Date(closedAt).toISOString(),
      signature_count: signers.length,
      government_response: response?.text ?? null,
      government_response_meta: response ? JSON.stringify(response.meta) : null,
      debate_info: debate ? JSON.stringify(debate) : null,
      debate_info_meta: debateMeta ? JSON.stringify(debateMeta) : null,
      version: 1 + (response ? 1 : 0) + (debate ? 1 : 0) + (spec.closed ? 1 : 0),
      created_at: createdAt,
      updated_at: new Date(Math.max(...times, closedAt ?? 0)).toISOString(),
      response_threshold_reached_at: reached(RESPONSE_THRESHOLD),
      debate_threshold_reached_at: reached(DEBATE_THRESHOLD),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('petition_tags')
    .values(spec.tags.map((tag) => ({ petition_id: row.id, tag })))
    .execute();
  await trx
    .insertInto('signatures')
    .values(
      signers.map((signer, i) => ({
        petition_id: row.id,
        user_id: signer.id,
        username: signer.username,
        display_name: signer.displayName,
        signed_at: new Date(times[i]!).toISOString(),
      })),
    )
    .execute();
}

/** Seeds an empty database; does nothing if it already holds terms or petitions. */
export async function seedDemoData(db: Kysely<Database>, now: Date = new Date()): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('petitions')
      .select('id')
      .union(trx.selectFrom('terms').select('id'))
      .limit(1)
      .executeTakeFirst();
    if (existing) return;

    const nowMs = now.getTime();
    const stamp = now.toISOString();
    const random = randomSequence(87);
    const terms = await insertTerms(trx, nowMs, stamp);
    await trx
      .insertInto('users')
      .values(
        DEMO_USERS.map((user) => ({
          id: user.id,
          username: user.username,
          display_name: user.displayName,
          avatar_url: null,
          citizen_rank: 1,
          government_rank: 0,
          groups_unavailable: 0,
          roles_checked_at: stamp,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    for (const [index, spec] of DEMO_PETITIONS.entries()) {
      await insertPetition(trx, spec, index, terms, nowMs, random);
    }
  });
}
