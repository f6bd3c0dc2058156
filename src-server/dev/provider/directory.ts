import { createHash } from 'node:crypto';
import { DEV_PERSONAS } from './personas.ts';

/** A signed-in identity: one of the personas or a custom user typed into the sign-in page. */
export interface DevUser {
  id: string;
  /** Persona label, or undefined for custom users. */
  label: string | undefined;
  username: string;
  displayName: string;
  citizenRank: number;
  governmentRank: number;
  /** Path relative to apiBase, or null for "no headshot yet / moderated". */
  picturePath: string | null;
  /** Account creation, Unix seconds (the `created_at` claim). */
  createdAt: number;
  /** The `verified` claim (the `verification` scope). */
  verified: boolean;
  /** When the user joined the groups (membership createTime). */
  joinedAt: string;
}

export interface DevGroup {
  id: string;
  name: string;
}

export interface DevRole {
  id: string;
  groupId: string;
  rank: number;
  displayName: string;
  description: string;
  createTime: string;
}

export interface CustomUserInput {
  id: string;
  displayName: string;
  citizenRank: number;
  governmentRank: number;
  /** How old the account is now, in days: sets `created_at`, so every age rule can be tried locally. */
  accountAgeDays: number;
  verified: boolean;
}

const DAY_SECONDS = 86_400;

/** The `created_at` of an account `days` old at `now`. */
export function accountCreatedSeconds(now: Date, days: number): number {
  return Math.floor(now.getTime() / 1000) - days * DAY_SECONDS;
}

const FIXTURE_TIME = '2024-03-01T10:00:00Z';

// Roblox role ids are opaque and unrelated to rank; hashing keeps them opaque (so nobody can
// derive a rank from an id) yet stable across restarts (so a server-side roleId→rank cache
// never maps an old id to a different rank after the dev provider restarts).
function opaqueRoleId(groupId: string, rank: number, taken: ReadonlySet<string>): string {
  for (let salt = 0; ; salt += 1) {
    const digest = createHash('sha256').update(`${groupId}:${rank}:${salt}`).digest();
    const id = String(100_000_000 + (digest.readUInt32BE(0) % 900_000_000));
    if (!taken.has(id)) return id;
  }
}

export function createDirectory(options: { citizenGroupId: string; governmentGroupId: string }) {
  const { citizenGroupId, governmentGroupId } = options;
  if (citizenGroupId === governmentGroupId) {
    throw new Error('citizenGroupId and governmentGroupId must differ');
  }

  const groups = new Map<string, DevGroup>([
    [citizenGroupId, { id: citizenGroupId, name: 'Development Citizens' }],
    [governmentGroupId, { id: governmentGroupId, name: 'Development Government' }],
  ]);

  const rolesByGroup = new Map<string, Map<number, DevRole>>();
  const roleIds = new Set<string>();

  function roleForRank(groupId: string, rank: number, displayName = `Rank ${rank}`, description = ''): DevRole {
    let byRank = rolesByGroup.get(groupId);
    if (!byRank) {
      byRank = new Map();
      rolesByGroup.set(groupId, byRank);
    }
    const existing = byRank.get(rank);
    if (existing) return existing;
    const role: DevRole = {
      id: opaqueRoleId(groupId, rank, roleIds),
      groupId,
      rank,
      displayName,
      description,
      createTime: FIXTURE_TIME,
    };
    roleIds.add(role.id);
    byRank.set(rank, role);
    return role;
  }

  roleForRank(citizenGroupId, 0, 'Guest', 'Not a member of the group.');
  roleForRank(citizenGroupId, 1, 'Citizen', 'May sign petitions.');
  roleForRank(citizenGroupId, 255, 'Owner', 'Group owner.');
  roleForRank(governmentGroupId, 0, 'Guest', 'Not a member of the group.');
  roleForRank(governmentGroupId, 1, 'Member', 'Member of the government group without office.');
  roleForRank(governmentGroupId, 6, 'Cabinet Minister', 'Office: Cabinet Minister.');
  roleForRank(governmentGroupId, 7, 'Leader of the House of Commons', 'Office: Leader of the House of Commons.');
  roleForRank(governmentGroupId, 8, 'Prime Minister', 'Office: Prime Minister.');
  roleForRank(governmentGroupId, 255, 'Owner', 'Group owner.');

  const started = new Date();
  const personaUsers: DevUser[] = DEV_PERSONAS.map((p) => ({
    id: p.id,
    label: p.label,
    username: p.username,
    displayName: p.displayName,
    citizenRank: p.citizenRank,
    governmentRank: p.governmentRank,
    picturePath: p.picture,
    createdAt: accountCreatedSeconds(started, p.accountAgeDays),
    verified: p.verified,
    joinedAt: FIXTURE_TIME,
  }));
  const personaIds = new Set(personaUsers.map((u) => u.id));
  const customUsers = new Map<string, DevUser>();

  function allUsers(): DevUser[] {
    return [...personaUsers, ...customUsers.values()];
  }

  function rankIn(user: DevUser, groupId: string): number {
    if (groupId === citizenGroupId) return user.citizenRank;
    if (groupId === governmentGroupId) return user.governmentRank;
    return 0;
  }

  return {
    citizenGroupId,
    governmentGroupId,

    isPersonaId(id: string): boolean {
      return personaIds.has(id);
    },

    findUser(id: string): DevUser | undefined {
      return personaUsers.find((u) => u.id === id) ?? customUsers.get(id);
    },

    listUsers: allUsers,

    /** Creates or replaces a custom user; personas are fixed and cannot be overwritten. */
    saveCustomUser(input: CustomUserInput): DevUser {
      if (personaIds.has(input.id)) {
        throw new Error(`user id ${input.id} belongs to a persona`);
      }
      const previous = customUsers.get(input.id);
      const now = new Date();
      const user: DevUser = {
        id: input.id,
        label: undefined,
        username: `Dev_${input.id}`,
        displayName: input.displayName,
        citizenRank: input.citizenRank,
        governmentRank: input.governmentRank,
        picturePath: `/headshots/${input.id}.png`,
        createdAt: accountCreatedSeconds(now, input.accountAgeDays),
        verified: input.verified,
        joinedAt: previous?.joinedAt ?? now.toISOString(),
      };
      // Ranks nobody used before get a role now, as a group owner would have created one.
      if (user.citizenRank > 0) roleForRank(citizenGroupId, user.citizenRank);
      if (user.governmentRank > 0) roleForRank(governmentGroupId, user.governmentRank);
      customUsers.set(user.id, user);
      return user;
    },

    findGroup(groupId: string): DevGroup | undefined {
      return groups.get(groupId);
    },

    rankIn,

    /** The user's role in the group, or undefined when not a member (rank 0). */
    roleOf(user: DevUser, groupId: string): DevRole | undefined {
      const rank = rankIn(user, groupId);
      return rank > 0 && groups.has(groupId) ? roleForRank(groupId, rank) : undefined;
    },

    listRoles(groupId: string): DevRole[] {
      return [...(rolesByGroup.get(groupId)?.values() ?? [])].sort((a, b) => a.rank - b.rank);
    },

    findRole(groupId: string, roleId: string): DevRole | undefined {
      return [...(rolesByGroup.get(groupId)?.values() ?? [])].find((r) => r.id === roleId);
    },

    membersOf(groupId: string): DevUser[] {
      return allUsers().filter((u) => rankIn(u, groupId) > 0);
    },

    memberCount(groupId: string, rank?: number): number {
      return allUsers().filter((u) => {
        const r = rankIn(u, groupId);
        return rank === undefined ? r > 0 : r === rank && r > 0;
      }).length;
    },
  };
}

export type Directory = ReturnType<typeof createDirectory>;
