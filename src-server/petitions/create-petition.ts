/**
 * Creating a petition. Everything that decides whether the creation may happen (ban, session of
 * Parliament, the daily limit) is read in the same transaction as the insert, so parallel
 * requests cannot squeeze past the limit, and the creator's own signature is part of it too.
 */
import { DAILY_PETITION_LIMIT, DEFAULT_CATEGORY } from '../../src-shared/domain/constants.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { z } from 'zod';
import type { CreatePetitionBody, Petition } from '../../src-shared/domain/schemas.ts';
import type { AppContext } from '../context.ts';
import { HttpError } from '../http/problem.ts';
import type { Viewer } from '../http/viewer.ts';
import { assertAccountOldEnough } from '../integrity/account-age-gate.ts';
import { assertClaimedIdentity } from './claimed-identity.ts';
import { petitionsCreatedToday, recordCreation } from './daily-allowance.ts';
import { toPetition } from './petition-record.ts';
import { findCurrentTerm } from '../terms/terms-repository.ts';
import { isBanned } from '../bans/bans-repository.ts';

/** Not a text of messages.ts: a legacy client may only name the current term. */
export const TERM_NOT_CURRENT = 'New petitions can only be filed under the current parliamentary term';

function distinct(tags: readonly string[]): string[] {
  return [...new Set(tags)];
}

export async function createPetition(context: AppContext, viewer: Viewer, body: z.output<typeof CreatePetitionBody>): Promise<Petition> {
  assertClaimedIdentity(viewer, { id: body.creator_id, name: body.creator });
  assertAccountOldEnough(context, viewer.userRow, 'create');
  const user = viewer.user;
  const now = context.now();
  const stamp = now.toISOString();
  const tags = distinct(body.tags);

  return context.db.transaction().execute(async (trx) => {
    // Two creations by one user (on any node) must not both count 2 and both insert.
    await context.locks.lock(trx, 'petition-creator', user.id);
    if (await isBanned(trx, user.id)) throw new HttpError(403, ERRORS.banned);
    const term = await findCurrentTerm(trx, now);
    if (!term) throw new HttpError(400, ERRORS.notInSession);
    if (body.termId !== undefined && body.termId !== null && body.termId !== term.id) {
      throw new HttpError(400, TERM_NOT_CURRENT);
    }
    if ((await petitionsCreatedToday(trx, user.id, now)) >= DAILY_PETITION_LIMIT) {
      throw new HttpError(429, ERRORS.dailyLimit);
    }

    const row = await trx
      .insertInto('petitions')
      .values({
        title: body.title.trim(),
        description: body.description.trim(),
        creator_name: user.displayName,
        creator_id: user.id,
        tags: JSON.stringify(tags),
        category: body.category?.trim() || DEFAULT_CATEGORY,
        term_id: term.id,
        status: 'open',
        closure_reason: null,
        closed_at: null,
        // The creator's own signature, inserted just below.
        signature_count: 1,
        government_response: null,
        government_response_meta: null,
        debate_info: null,
        debate_info_meta: null,
        version: 1,
        created_at: stamp,
        updated_at: stamp,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('petition_tags')
      .values(tags.map((tag) => ({ petition_id: row.id, tag })))
      .execute();
    await trx
      .insertInto('signatures')
      .values({ petition_id: row.id, user_id: user.id, username: user.username, display_name: user.displayName, signed_at: stamp })
      .execute();
    await recordCreation(trx, user.id, row.id, now);
    return toPetition(row);
  });
}
