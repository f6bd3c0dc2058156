/**
 * The signatures table as migration 0025 lays it out on SQLite (docs/operations.md#the-signatures-table):
 * keyed (petition, signed_at, user), with a unique (user, petition) index and the time index. A
 * member's second signature is still refused, also one made later (a different key in the table),
 * and the reads and writes of signatures find their rows by key or index range: on SQLite through
 * the index each is meant to use, on PostgreSQL (unchanged) never by a sequential scan. The
 * statements are written as their modules write them.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNERS_PREVIEW_COUNT } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { StoredPetitionEvent } from '../../src-server/feed/events.ts';
import { eventRecipients } from '../../src-server/feed/recipients.ts';
import { moderatedForMember } from '../../src-server/petitions/public-visibility.ts';
import { ROLE_PROFILES, startTestApi, type TestApi } from '../support/api-harness.ts';
import { queryPlan } from '../support/query-plan.ts';
import { addSignatures, insertPetition } from './public-test-data.ts';

let api: TestApi;
let petitionId: number;
let otherPetitionId: number;
/** Signed both petitions (addSignatures numbers its signers from 500001). */
const MEMBER = '500001';

beforeAll(async () => {
  api = await startTestApi();
  const db = api.context.db;
  petitionId = (await insertPetition(db)).id;
  await addSignatures(db, petitionId, 40);
  otherPetitionId = (await insertPetition(db)).id;
  await addSignatures(db, otherPetitionId, 5, { signedAt: (i) => new Date(Date.UTC(2026, 1, 1, 0, 0, i)).toISOString() });
});

afterAll(async () => {
  await api.close();
});

const plan = (query: { compile(): Parameters<typeof queryPlan>[2] }) => queryPlan(api.context.db, api.context.dialect, query.compile());
const sqlite = () => api.context.dialect === 'sqlite';
/** What every plan must hold: on PostgreSQL (sequential scans off) no scan of the table was left. */
function expectNoScan(text: string): void {
  expect(text).not.toMatch(/^SCAN (signatures|s)\b/m);
  expect(text).not.toMatch(/Seq Scan on signatures/);
}

describe('a second signature by the same member', () => {
  it('is refused by the signing insert, at the same time or later', async () => {
    const db = api.context.db;
    // As signing.ts's insertSignature.
    const insert = async (userId: string, signedAt: string) => {
      const result = await db
        .insertInto('signatures')
        .values({ petition_id: petitionId, user_id: userId, username: 'again', display_name: 'Again', signed_at: signedAt })
        .onConflict((oc) => oc.columns(['petition_id', 'user_id']).doNothing())
        .executeTakeFirstOrThrow();
      return Number(result.numInsertedOrUpdatedRows);
    };
    expect(await insert(MEMBER, '2026-01-01T00:00:00.000Z')).toBe(0);
    expect(await insert(MEMBER, '2027-06-01T00:00:00.000Z')).toBe(0);
    // The same statement still writes a first signature.
    expect(await insert('700001', '2027-06-01T00:00:00.000Z')).toBe(1);
    await db.deleteFrom('signatures').where('petition_id', '=', petitionId).where('user_id', '=', '700001').execute();
    const rows = await db.selectFrom('signatures').selectAll().where('petition_id', '=', petitionId).where('user_id', '=', MEMBER).execute();
    expect(rows).toEqual([{ petition_id: petitionId, user_id: MEMBER, username: 'signer1', display_name: 'Signer 1', signed_at: '2026-01-01T00:00:00.000Z' }]);
    // A plain insert of a later signature breaks the unique (user, petition) index.
    await expect(
      db.insertInto('signatures').values({ petition_id: petitionId, user_id: MEMBER, username: 'x', display_name: 'X', signed_at: '2027-06-02T00:00:00.000Z' }).execute(),
    ).rejects.toThrow(/unique|duplicate/i);
  });

  it('is refused through the API, later in time', async () => {
    const cookie = await api.signInAs('citizen');
    const petition = await insertPetition(api.context.db);
    const sign = () => api.request({ method: 'POST', url: `/api/petitions/${petition.id}/sign`, cookie });
    try {
      api.setNow(new Date('2026-04-01T12:00:00.000Z'));
      expect((await sign()).statusCode).toBe(200);
      api.setNow(new Date('2026-04-02T12:00:00.000Z'));
      const again = await sign();
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ detail: ERRORS.alreadySigned });
    } finally {
      api.setNow(null);
    }
    const rows = await api.context.db.selectFrom('signatures').select('signed_at').where('petition_id', '=', petition.id).where('user_id', '=', ROLE_PROFILES.citizen.id).execute();
    expect(rows).toEqual([{ signed_at: '2026-04-01T12:00:00.000Z' }]);
  });
});

describe('plans', () => {
  it("unsigning deletes by the member's key in signatures_by_user", async () => {
    // As signing.ts's deleteSignature.
    const text = await plan(api.context.db.deleteFrom('signatures').where('petition_id', '=', petitionId).where('user_id', '=', MEMBER));
    expectNoScan(text);
    if (sqlite()) expect(text).toBe('SEARCH signatures USING COVERING INDEX signatures_by_user (user_id=? AND petition_id=?)');
  });

  it("a page of the signer list is a range of the table's key, already in order", async () => {
    // As petition-reads.ts's signersPage.
    const text = await plan(
      api.context.db
        .selectFrom('signatures')
        .select(['user_id', 'username', 'display_name', 'signed_at'])
        .where('petition_id', '=', petitionId)
        .orderBy('signed_at', 'asc')
        .orderBy('user_id', 'asc')
        .limit(20)
        .offset(20),
    );
    expectNoScan(text);
    if (sqlite()) expect(text).toBe('SEARCH signatures USING PRIMARY KEY (petition_id=?)');
  });

  it("the first signers' read (SQLite's rebuild by its triggers and the anonymiser, PostgreSQL's petition_first_signers) reads the first rows of the key", async () => {
    // As the triggers' rebuild (migrations 0005, 0006) and anonymous-signers.ts's refreshFirstSigners on
    // SQLite; on PostgreSQL as petition_first_signers (migration 0010), which petition pages read (0027).
    const rebuild = sql`UPDATE petitions SET first_signers = (SELECT coalesce(CAST(json_group_array(user_id) AS text), '[]')
      FROM (SELECT user_id, username, display_name, signed_at FROM signatures WHERE petition_id = petitions.id
            ORDER BY signed_at, user_id LIMIT ${sql.lit(SIGNERS_PREVIEW_COUNT)}) AS listed) WHERE id = ${petitionId}`;
    const rows = api.context.db
      .selectFrom('signatures')
      .select(['user_id', 'username', 'display_name', 'signed_at'])
      .where('petition_id', '=', petitionId)
      .orderBy('signed_at')
      .orderBy('user_id')
      .limit(SIGNERS_PREVIEW_COUNT);
    const plans = sqlite() ? [await plan({ compile: () => rebuild.compile(api.context.db) }), await plan(rows)] : [await plan(rows)];
    for (const text of plans) {
      expectNoScan(text);
      if (sqlite()) {
        expect(text).toContain('SEARCH signatures USING PRIMARY KEY (petition_id=?)');
        expect(text).not.toContain('TEMP B-TREE');
      }
    }
  });

  it("a member's signed list sorts the member's entries of signatures_by_user, then reads the page's petitions", async () => {
    const db = api.context.db;
    // As my-petitions.ts's signed page.
    const page = db
      .selectFrom('signatures')
      .select(['petition_id', 'signed_at'])
      .where('user_id', '=', MEMBER)
      .where('petition_id', 'not in', moderatedForMember(db, MEMBER))
      .orderBy('signed_at', 'desc')
      .orderBy('petition_id', 'desc')
      .limit(20)
      .offset(0)
      .as('s');
    const text = await plan(
      db
        .selectFrom(page)
        .innerJoin('petitions as p', 'p.id', 's.petition_id')
        .select(['p.id', 'p.title', 's.signed_at'])
        .select(sql<number | null>`(select max(e.id) from petition_events e where e.petition_id = p.id)`.as('latest_event_id'))
        .orderBy('s.signed_at', 'desc')
        .orderBy('s.petition_id', 'desc'),
    );
    // SQLite's "SCAN s" there reads the page's rows out of the subquery, not a table.
    expectNoScan(text.replace(/^SCAN s$/m, ''));
    if (sqlite()) {
      const lines = text.split('\n');
      expect(lines.slice(0, 2)).toEqual(['CO-ROUTINE s', 'SEARCH signatures USING COVERING INDEX signatures_by_user (user_id=?)']);
      // Sorted before any petition is read, and only once.
      expect(lines.filter((line) => line.includes('TEMP B-TREE'))).toEqual(['USE TEMP B-TREE FOR ORDER BY']);
      expect(lines.indexOf('USE TEMP B-TREE FOR ORDER BY')).toBeLessThan(lines.indexOf('SEARCH p USING INTEGER PRIMARY KEY (rowid=?)'));
    }
    const rows = await db.selectFrom('signatures').select('petition_id').where('user_id', '=', MEMBER).orderBy('petition_id').execute();
    expect(rows.map((row) => row.petition_id)).toEqual([petitionId, otherPetitionId]);
  });

  it('the signing monitor reads new signatures by time through signatures_by_signed_at', async () => {
    // As signing-monitor.ts's newSignatures.
    const text = await plan(
      api.context.db
        .selectFrom('signatures as s')
        .leftJoin('users as u', 'u.id', 's.user_id')
        .select(['s.petition_id', 's.signed_at', 'u.account_created_at'])
        .where('s.signed_at', '>', '2026-01-01T00:00:10.000Z')
        .where('s.signed_at', '<=', '2026-01-01T00:00:20.000Z')
        .orderBy('s.signed_at')
        .limit(5_001),
    );
    expectNoScan(text);
    if (sqlite()) expect(text).toContain('SEARCH s USING COVERING INDEX signatures_by_signed_at (signed_at>? AND signed_at<?)');
  });

  it("SQLite: an event's recipients are paged in the key's order, and an invalidation chunk deletes by key", async () => {
    if (!sqlite()) {
      // PostgreSQL keeps (petition, user) for both; the plan only has to avoid a scan.
      expectNoScan(await plan(api.context.db.deleteFrom('signatures').where('petition_id', '=', petitionId).where('user_id', 'in', [MEMBER, '500002'])));
      return;
    }
    const db = api.context.db;
    // As recipients.ts's page after a cursor on SQLite.
    const page = await plan(
      db
        .selectFrom('signatures as s')
        .select('s.user_id')
        .where('s.petition_id', '=', petitionId)
        .where('s.signed_at', '<=', '2027-01-01T00:00:00.000Z')
        .where((eb) => eb(eb.refTuple('s.signed_at', 's.user_id'), '>', eb.tuple('2026-01-01T00:00:05.000Z', '500006')))
        .orderBy('s.signed_at')
        .orderBy('s.user_id')
        .limit(500),
    );
    expect(page).toBe('SEARCH s USING PRIMARY KEY (petition_id=? AND (signed_at,user_id)>(?,?) AND signed_at<?)');
    // As signature-moves.ts's invalidateChunk: by user ids alone the planner would walk the petition's signatures.
    const chunk = await plan(
      db
        .deleteFrom('signatures')
        .where('petition_id', '=', petitionId)
        .where((eb) =>
          eb(eb.refTuple('signed_at', 'user_id'), 'in', [eb.tuple('2026-01-01T00:00:00.000Z', MEMBER), eb.tuple('2026-01-01T00:00:01.000Z', '500002')]),
        )
        .returningAll(),
    );
    expect(chunk).toContain('SEARCH signatures USING PRIMARY KEY (petition_id=? AND signed_at=? AND user_id=?)');
  });
});

describe("an event's recipients", () => {
  it('are paged by user id on PostgreSQL and in signing order on SQLite, losing nobody when the cursor member unsigns', async () => {
    const db = api.context.db;
    const petition = await insertPetition(db, { creator_id: null });
    // Signed in the reverse of user id order.
    await addSignatures(db, petition.id, 12, { prefix: '8', signedAt: (i) => new Date(Date.UTC(2026, 2, 1, 0, 0, 59 - i)).toISOString() });
    const event: StoredPetitionEvent = {
      id: 0,
      petitionId: petition.id,
      detail: { kind: 'petition_closed', reason: 'staff' },
      audience: 'signers',
      actorId: null,
      at: '2026-03-02T00:00:00.000Z',
    };
    const ids = Array.from({ length: 12 }, (_, i) => `8${String(i + 1).padStart(5, '0')}`);
    const expected = sqlite() ? [...ids].reverse() : ids;
    const all: string[] = [];
    for (let after: string | null = null; ; ) {
      const page = await eventRecipients(db, event, { afterUserId: after, limit: 5 });
      all.push(...page);
      if (page.length < 5) break;
      after = page.at(-1)!;
    }
    expect(all).toEqual(expected);

    // The member the cursor names unsigns between two pages: every other signer is still reached.
    const first = await eventRecipients(db, event, { afterUserId: null, limit: 5 });
    await db.deleteFrom('signatures').where('petition_id', '=', petition.id).where('user_id', '=', first.at(-1)!).execute();
    const reached = new Set(first);
    for (let after: string | null = first.at(-1)!; ; ) {
      const page = await eventRecipients(db, event, { afterUserId: after, limit: 5 });
      for (const id of page) reached.add(id);
      if (page.length < 5) break;
      after = page.at(-1)!;
    }
    expect([...reached].sort()).toEqual(ids);
  });
});
