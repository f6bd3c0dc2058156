/**
 * Fills a migrated database with benchmark-scale data using raw better-sqlite3 prepared statements
 * in a few big transactions (Kysely's per-statement cost would make a million rows slow). The FTS
 * triggers stay on, so the search index is built exactly as production builds it.
 *
 * For the notification centre (docs/notifications.md) it also records what happened to the petitions
 * as events (responses, closures, thresholds, a few debates), gives `feedReaders` members
 * `signaturesPerReader` signatures each (signed before those events: their feeds are full and
 * mostly unread; a few mutes and a topic switched off), one petition `megaSigners` signers (the
 * staff response scenarios compare it with small ones), and a Cabinet Minister. Those signatures are
 * part of `signatures`, not added to it.
 */
import BetterSqlite3 from 'better-sqlite3';
import { TAGS } from '../../src-shared/domain/constants.ts';
import { automaticStatus } from '../../src-shared/rules/classification.ts';
import { londonDay } from '../../src-shared/rules/dates.ts';
import { randomSequence } from '../../src-server/dev/seed/random-sequence.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface BenchSeedOptions {
  file: string;
  petitions: number;
  signatures: number;
  /** Users who get a session and sign during the benchmark (ids 1..n); they hold no seeded signature. */
  signingUsers: number;
  /** Members whose notification centre is read (ids FEED_READER_BASE + 1..n). */
  feedReaders: number;
  signaturesPerReader: number;
  /** Signers of the one very large petition. */
  megaSigners: number;
  now: Date;
}

export interface BenchSeedResult {
  /** Ids of petitions that are not closed, so the sign scenario never hits a 409. */
  openPetitionIds: number[];
  searchWords: string[];
  currentTermId: number;
  feedReaderIds: string[];
  ministerId: string;
  /** Open petitions with 10 to 19 signers, and the petition with `megaSigners`. */
  smallPetitionIds: number[];
  megaPetitionId: number;
  events: number;
}

export const FEED_READER_BASE = 5_000_000;
export const BENCH_MINISTER_ID = '9999001';

/** Seeded signers live far above the benchmark's signing users, so no pair is ever signed twice. */
const SEED_SIGNER_BASE = 10_000_000;
const SEED_SIGNER_POOL = 2_000_000;

/** Words people search for; they sit in the middle of the frequency ranking, as topical words do. */
const TOPICAL_WORDS = [
  'school', 'library', 'hospital', 'railway', 'tax', 'budget', 'pension', 'housing', 'energy', 'climate',
  'river', 'park', 'museum', 'police', 'court', 'prison', 'army', 'navy', 'embassy', 'treaty',
  'parliament', 'election', 'referendum', 'vote', 'council', 'minister', 'monarchy', 'crown', 'castle', 'festival',
  'teacher', 'nurse', 'doctor', 'farmer', 'fisher', 'miner', 'student', 'veteran', 'pensioner', 'worker',
  'broadband', 'bus', 'bridge', 'road', 'cycle', 'tram', 'airport', 'harbour', 'canal', 'tunnel',
  'wage', 'rent', 'price', 'tariff', 'subsidy', 'grant', 'loan', 'bank', 'pound', 'coin',
  'forest', 'garden', 'beach', 'mountain', 'island', 'village', 'town', 'city', 'county', 'region',
  'charter', 'statute', 'rights', 'freedom', 'privacy', 'speech', 'press', 'assembly', 'petition', 'ombudsman',
];
/** The most frequent words of any petition corpus. */
const COMMON_WORDS = [
  'public', 'national', 'local', 'people', 'community', 'support', 'service', 'new', 'more', 'plan',
  'funding', 'access', 'safety', 'future', 'help', 'change', 'review', 'fair', 'free', 'protect',
];
const VERBS = ['Fund', 'Protect', 'Reform', 'Ban', 'Review', 'Expand', 'Scrap', 'Publish', 'Support', 'Restore'];
const SYLLABLES = ['ba', 'ke', 'lo', 'mi', 'nu', 'ra', 'si', 'to', 've', 'zu', 'dar', 'fen', 'gil', 'hop', 'jun', 'mor'];
const VOCABULARY_SIZE = 2_000;

/**
 * A Zipf-ranked vocabulary (weight 1/rank): common words first, topical words next, then a long tail
 * of rarer invented words, so that a search for a topical word matches a few per cent of petitions.
 */
function vocabulary(): string[] {
  const words = [...COMMON_WORDS, ...TOPICAL_WORDS];
  for (let i = 0; words.length < VOCABULARY_SIZE; i += 1) {
    const a = SYLLABLES[i % SYLLABLES.length]!;
    const b = SYLLABLES[Math.floor(i / SYLLABLES.length) % SYLLABLES.length]!;
    const c = SYLLABLES[Math.floor(i / SYLLABLES.length ** 2) % SYLLABLES.length]!;
    words.push(`${a}${b}${c}x`);
  }
  return words;
}

function zipfSampler(size: number, random: () => number): () => number {
  const cumulative = new Float64Array(size);
  let sum = 0;
  for (let rank = 0; rank < size; rank += 1) cumulative[rank] = sum += 1 / (rank + 1);
  return () => {
    const target = random() * sum;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return low;
  };
}

/** A heavy-tailed split of `total` signatures over `count` petitions (a few popular, most small). */
function signatureCounts(count: number, total: number, random: () => number): number[] {
  const weights = Array.from({ length: count }, () => 1 / Math.pow(random() + 0.0005, 1.1));
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.min(SEED_SIGNER_POOL, Math.floor((w / sum) * total)));
  let missing = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; missing > 0; i = (i + 1) % count, missing -= 1) counts[i]! += 1;
  return counts;
}

export function seedBenchData(options: BenchSeedOptions): BenchSeedResult {
  const db = new BetterSqlite3(options.file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -256000');
  const random = randomSequence(2026);
  const now = options.now.getTime();
  const stamp = options.now.toISOString();

  const insertTerm = db.prepare(
    'INSERT INTO terms (name, start_date, end_date, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const previousTermId = Number(
    insertTerm.run('Term 86', londonDay(new Date(now - 700 * DAY_MS)), londonDay(new Date(now - 366 * DAY_MS)), 'completed', stamp, stamp)
      .lastInsertRowid,
  );
  const currentTermId = Number(
    insertTerm.run('Term 87', londonDay(new Date(now - 365 * DAY_MS)), londonDay(new Date(now + 365 * DAY_MS)), null, stamp, stamp)
      .lastInsertRowid,
  );

  const insertUser = db.prepare(
    `INSERT INTO users (id, username, display_name, avatar_url, citizen_rank, government_rank, groups_unavailable, roles_checked_at, created_at, updated_at)
     VALUES (?, ?, ?, NULL, 1, 0, 0, ?, ?, ?)`,
  );
  db.transaction(() => {
    for (let i = 1; i <= options.signingUsers; i += 1) insertUser.run(String(i), `bench${i}`, `Bench Citizen ${i}`, stamp, stamp, stamp);
  })();

  const readerSignatures = options.feedReaders * options.signaturesPerReader;
  // The very large petition is the first; the readers' signatures are chosen up front, so every
  // petition's count and status include them.
  const counts = [options.megaSigners, ...signatureCounts(options.petitions - 1, options.signatures - readerSignatures - options.megaSigners, random)];
  const readersOf = new Map<number, number[]>();
  for (let reader = 1; reader <= options.feedReaders; reader += 1) {
    const chosen = new Set<number>();
    while (chosen.size < Math.min(options.signaturesPerReader, options.petitions - 1)) chosen.add(1 + Math.floor(random() * (options.petitions - 1)));
    for (const index of chosen) {
      const list = readersOf.get(index) ?? [];
      list.push(reader);
      readersOf.set(index, list);
    }
  }
  const insertReader = db.prepare(
    `INSERT INTO users (id, username, display_name, avatar_url, citizen_rank, government_rank, groups_unavailable, roles_checked_at, created_at, updated_at)
     VALUES (?, ?, ?, NULL, ?, ?, 0, ?, ?, ?)`,
  );
  const feedReaderIds = Array.from({ length: options.feedReaders }, (_, i) => String(FEED_READER_BASE + i + 1));
  db.transaction(() => {
    for (const id of feedReaderIds) insertReader.run(id, `reader${id}`, `Feed Reader ${id}`, 1, 0, stamp, stamp, stamp);
    insertReader.run(BENCH_MINISTER_ID, 'benchminister', 'Bench Minister', 1, 6, stamp, stamp, stamp);
  })();
  const insertEvent = db.prepare(
    'INSERT INTO petition_events (petition_id, kind, audience, detail, actor_id, dedupe_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const smallPetitionIds: number[] = [];
  let megaPetitionId = 0;
  let events = 0;
  const insertPetition = db.prepare(
    `INSERT INTO petitions (title, description, creator_name, creator_id, tags, category, term_id, status, closure_reason, closed_at,
       signature_count, government_response, government_response_meta, debate_info, debate_info_meta, version, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'General', ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, 1, ?, ?)`,
  );
  const insertTag = db.prepare('INSERT INTO petition_tags (petition_id, tag) VALUES (?, ?)');
  const insertSignature = db.prepare(
    'INSERT INTO signatures (petition_id, user_id, username, display_name, signed_at) VALUES (?, ?, ?, ?, ?)',
  );
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const words = vocabulary();
  const zipf = zipfSampler(words.length, random);
  const word = () => words[zipf()]!;
  const openPetitionIds: number[] = [];

  db.transaction(() => {
    for (let i = 0; i < options.petitions; i += 1) {
      const topic = [word(), word(), word()];
      const title = `${pick(VERBS)} the ${topic[0]} ${topic[1]} plan for every ${topic[2]}`;
      const description = `We call on the Government to act on the ${topic.join(', ')} question. ${Array.from({ length: 12 }, word).join(' ')}.`;
      const tags = [...new Set([pick(TAGS), pick(TAGS)])];
      // The very large petition is current and open, so staff can answer it.
      const previous = random() < 0.2 && i !== 0;
      const created = previous ? now - (400 + random() * 290) * DAY_MS : now - random() * 360 * DAY_MS;
      const readers = readersOf.get(i) ?? [];
      const count = counts[i]! + readers.length;
      const responded = count >= 10 && random() < 0.3;
      const response = responded ? 'The Government has considered this petition and responds as follows.' : null;
      const closed = previous || (count < 10 && created < now - 21 * DAY_MS && random() < 0.5);
      const status = closed ? 'closed' : automaticStatus({ status: 'open', signatures: count, governmentResponse: response, debateInfo: null });
      const createdAt = new Date(created).toISOString();
      const id = Number(
        insertPetition.run(
          title,
          description,
          `Creator ${i}`,
          String(SEED_SIGNER_BASE + i),
          JSON.stringify(tags),
          previous ? previousTermId : currentTermId,
          status,
          closed ? (previous ? 'term_ended' : 'three_weeks_insufficient_signatures') : null,
          closed ? stamp : null,
          count,
          response,
          createdAt,
          createdAt,
        ).lastInsertRowid,
      );
      if (!closed) openPetitionIds.push(id);
      if (i === 0) megaPetitionId = id;
      else if (!closed && count >= 10 && count < 20) smallPetitionIds.push(id);
      for (const tag of tags) insertTag.run(id, tag);
      const first = Math.floor(random() * SEED_SIGNER_POOL);
      const span = Math.max(60_000, Math.min(now, created + 30 * DAY_MS) - created);
      for (let j = 0; j < counts[i]!; j += 1) {
        // The very large petition has more signers than the pool: its ids run on above it.
        const user = SEED_SIGNER_BASE + (i === 0 ? j : (first + j) % SEED_SIGNER_POOL);
        const signedAt = new Date(created + Math.floor(random() * span)).toISOString();
        insertSignature.run(id, String(user), `signer${user}`, `Signer ${user}`, signedAt);
      }
      // Readers signed early, so what happened since is news to them.
      for (const reader of readers) {
        const user = String(FEED_READER_BASE + reader);
        insertSignature.run(id, user, `reader${user}`, `Feed Reader ${user}`, new Date(created + 60_000).toISOString());
      }
      // What happened to it, each after its creation (ids in time order are not needed: ids are).
      const later = () => new Date(created + 120_000 + Math.floor(random() * Math.max(1, now - created - 120_000))).toISOString();
      const record = (kind: string, audience: string, detail: object, dedupe: string | null = null) => {
        insertEvent.run(id, kind, audience, JSON.stringify(detail), null, dedupe, later());
        events += 1;
      };
      if (count >= 10) record('threshold_reached', 'creator', { threshold: 10 }, 'threshold:10');
      if (count >= 20) record('threshold_reached', 'creator', { threshold: 20 }, 'threshold:20');
      if (responded) record('response_added', 'signers', { excerpt: response! });
      if (count >= 20 && random() < 0.2) record('debate_scheduled', 'signers', { date: londonDay(new Date(now + 30 * DAY_MS)), location: 'Westminster Hall' });
      if (closed) record('petition_closed', 'signers', { reason: previous ? 'term_ended' : 'three_weeks_insufficient_signatures' });
    }
  })();

  // A few mutes each, and one reader in ten hears nothing of closures.
  const insertMute = db.prepare('INSERT OR IGNORE INTO feed_mutes (user_id, petition_id, created_at) VALUES (?, ?, ?)');
  const insertOptout = db.prepare('INSERT INTO feed_topic_optouts (user_id, topic) VALUES (?, ?)');
  db.transaction(() => {
    feedReaderIds.forEach((id, index) => {
      for (let m = 0; m < 5; m += 1) insertMute.run(id, 2 + Math.floor(random() * (options.petitions - 1)), stamp);
      if (index % 10 === 0) insertOptout.run(id, 'closures');
    });
  })();

  // No ANALYZE: the production database never gets one either, so the planner sees what it sees there.
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { openPetitionIds, searchWords: TOPICAL_WORDS, currentTermId, feedReaderIds, ministerId: BENCH_MINISTER_ID, smallPetitionIds, megaPetitionId, events };
}
