/**
 * Fixtures for the notification centre's tests: members signed in through the session service, a
 * current term and petitions written straight to the database; everything the tests check then goes
 * through the real routes (signing, staff writes, the feed).
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { UserProfile } from '../../src-server/users/user-repository.ts';
import type { TestApi } from './api-harness.ts';

let nextMember = 70_000;

export interface Member {
  id: string;
  cookie: string;
}

/** A British Citizen with an id of its own. */
export async function newCitizen(api: TestApi, name = 'Member'): Promise<Member> {
  nextMember += 1;
  const id = String(nextMember);
  const profile: UserProfile = { id, username: `member${id}`, displayName: `${name} ${id}`, avatarUrl: null, citizenRank: 1, governmentRank: 0 };
  return { id, cookie: await api.signIn(profile) };
}

export async function currentTerm(api: TestApi): Promise<number> {
  const stamp = new Date().toISOString();
  const row = await api.context.db
    .insertInto('terms')
    .values({ name: `Term ${Math.random().toString(36).slice(2)}`, start_date: '2020-01-01', end_date: '2099-12-31', status: 'current', created_at: stamp, updated_at: stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A petition created by `creatorId` (signed by them, as creation does), in `termId`. */
export async function newPetition(
  api: TestApi,
  options: { creatorId: string; termId: number | null; title?: string; createdAt?: Date },
): Promise<number> {
  const stamp = (options.createdAt ?? new Date(api.context.now().getTime() - 60_000)).toISOString();
  const row = await api.context.db
    .insertInto('petitions')
    .values({
      title: options.title ?? `Petition ${Math.random().toString(36).slice(2, 8)}`,
      description: 'A petition written for the notification centre tests, long enough to pass.',
      creator_name: 'Creator',
      creator_id: options.creatorId,
      tags: JSON.stringify(['Rights']),
      category: 'General',
      term_id: options.termId,
      status: 'open',
      signature_count: 1,
      version: 1,
      created_at: stamp,
      updated_at: stamp,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await api.context.db
    .insertInto('signatures')
    .values({ petition_id: row.id, user_id: options.creatorId, username: 'creator', display_name: 'Creator', signed_at: stamp })
    .execute();
  return row.id;
}

export function ok(response: LightMyRequestResponse, status = 200): unknown {
  expect(response.statusCode, response.body).toBe(status);
  return response.json();
}

export async function sign(api: TestApi, member: Member, petitionId: number): Promise<void> {
  ok(await api.request({ method: 'POST', url: `/api/petitions/${petitionId}/sign`, cookie: member.cookie, payload: {} }));
}

export async function respond(api: TestApi, staffCookie: string, petitionId: number, text: string): Promise<void> {
  ok(
    await api.request({
      method: 'POST',
      url: `/api/petitions/${petitionId}/government-response`,
      cookie: staffCookie,
      payload: { response_text: text, added_by_role: 'Home Secretary' },
    }),
  );
}
