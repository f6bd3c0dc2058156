/**
 * Fills a migrated database with benchmark-scale data using raw better-sqlite3 prepared statements
 * in a few big transactions (Kysely's per-statement cost would make a million rows slow). The FTS
 * triggers stay on, so the search index is built exactly as production builds it.
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
  now: Date;
}

export interface BenchSeedResult {
  /** Ids of petitions that are not closed, so the sign scenario never hits a 409. */
  openPetitionIds: number[];
  searchWords: string[];
  currentTermId: number;
}

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

  const counts = signatureCounts(options.petitions, options.signatures, random);
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
      const previous = random() < 0.2;
      const created = previous ? now - (400 + random() * 290) * DAY_MS : now - random() * 360 * DAY_MS;
      const count = counts[i]!;
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
      for (const tag of tags) insertTag.run(id, tag);
      const first = Math.floor(random() * SEED_SIGNER_POOL);
      const span = Math.max(60_000, Math.min(now, created + 30 * DAY_MS) - created);
      for (let j = 0; j < count; j += 1) {
        const user = SEED_SIGNER_BASE + ((first + j) % SEED_SIGNER_POOL);
        const signedAt = new Date(created + Math.floor(random() * span)).toISOString();
        insertSignature.run(id, String(user), `signer${user}`, `Signer ${user}`, signedAt);
      }
    }
  })();

  // No ANALYZE: the production database never gets one either, so the planner sees what it sees there.
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { openPetitionIds, searchWords: TOPICAL_WORDS, currentTermId };
}
