/** Users as we know them from their last sign-in: names and group ranks. */
import type { Kysely } from 'kysely';
import type { User } from '../../src-shared/domain/schemas.ts';
import { deriveRoleFields } from '../../src-shared/rules/roles.ts';
import type { Database, UserRow } from '../db/schema.ts';

export interface UserProfile {
  id: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  citizenRank: number;
  governmentRank: number;
  groupsUnavailable?: boolean;
  /**
   * The ROBLOX account's creation instant (ISO text) and whether it is verified, when this sign-in's
   * claims said; absent or null leaves what an earlier sign-in stored (docs/integrity.md#account-signals).
   */
  accountCreatedAt?: string | null;
  accountVerified?: boolean | null;
}

/** Where anyone's picture is served (avatar-routes.ts), for users and signers alike. */
export const AVATAR_PATH_PREFIX = '/avatar/';

/** The picture of one user (stored in this shape in petitions.first_signers too, migration 0006). */
export function avatarPath(userId: string): string {
  return `${AVATAR_PATH_PREFIX}${userId}`;
}

export function toUser(row: UserRow, adminUserId: string | undefined): User {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    avatar: avatarPath(row.id),
    ...deriveRoleFields({
      isAdministrator: Boolean(adminUserId) && row.id === adminUserId,
      citizenRank: row.citizen_rank,
      governmentRank: row.government_rank,
    }),
    government_rank: row.government_rank,
    citizen_rank: row.citizen_rank,
    groups_unavailable: row.groups_unavailable === 1,
  };
}

export function createUserRepository(db: Kysely<Database>) {
  return {
    async upsert(profile: UserProfile, now = new Date()): Promise<UserRow> {
      const stamp = now.toISOString();
      const values = {
        username: profile.username,
        display_name: profile.displayName,
        avatar_url: profile.avatarUrl,
        citizen_rank: profile.citizenRank,
        government_rank: profile.governmentRank,
        groups_unavailable: profile.groupsUnavailable ? 1 : 0,
        roles_checked_at: stamp,
        updated_at: stamp,
        ...(profile.accountCreatedAt ? { account_created_at: profile.accountCreatedAt } : {}),
        ...(typeof profile.accountVerified === 'boolean' ? { account_verified: profile.accountVerified ? 1 : 0 } : {}),
      };
      return db
        .insertInto('users')
        .values({ id: profile.id, created_at: stamp, ...values })
        .onConflict((oc) => oc.column('id').doUpdateSet(values))
        .returningAll()
        .executeTakeFirstOrThrow();
    },

    /** Re-checked group ranks (names stay as the last sign-in gave them). */
    async updateRanks(
      id: string,
      ranks: { citizenRank: number; governmentRank: number; groupsUnavailable: boolean },
      now = new Date(),
    ): Promise<UserRow | undefined> {
      const stamp = now.toISOString();
      return db
        .updateTable('users')
        .set({
          citizen_rank: ranks.citizenRank,
          government_rank: ranks.governmentRank,
          groups_unavailable: ranks.groupsUnavailable ? 1 : 0,
          roles_checked_at: stamp,
          updated_at: stamp,
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
    },

    find(id: string): Promise<UserRow | undefined> {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
  };
}

export type UserRepository = ReturnType<typeof createUserRepository>;
