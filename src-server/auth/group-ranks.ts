/**
 * A user's ranks in the citizen and government groups, from Roblox Open Cloud v2 (memberships,
 * then role → rank, cached), with the legacy groups endpoint only as an optional fallback.
 * It never throws: when neither source answers, the user gets no group rights and the result
 * says so (`groupsUnavailable`).
 */
import { z } from 'zod';

/** Owners rarely renumber roles; half an hour keeps sign-in at two membership calls. */
const ROLE_RANK_CACHE_MS = 30 * 60 * 1000;
const REQUEST_TIMEOUT_MS = 5_000;
/** How long to leave the group service alone after a failure that gave no Retry-After. */
const DEFAULT_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 10 * 60 * 1000;

export interface GroupRanks {
  citizenRank: number;
  governmentRank: number;
  groupsUnavailable: boolean;
  source: 'open-cloud' | 'legacy' | 'none';
  /** When unavailable: do not ask again before this instant (from Retry-After, else a default). */
  retryAfterMs?: number;
}

export interface GroupRankSettings {
  apiBase: string;
  legacyGroupsBase: string | undefined;
  citizenGroupId: string | undefined;
  governmentGroupId: string | undefined;
  log?: (message: string, details?: Record<string, unknown>) => void;
}

export class GroupApiError extends Error {
  readonly status: number | null;
  readonly retryAfterMs: number | null;

  constructor(message: string, status: number | null, retryAfterMs: number | null) {
    super(message);
    this.name = 'GroupApiError';
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

const MembershipsResponse = z.object({
  // Google-style APIs leave out empty repeated fields: no key means no membership.
  groupMemberships: z.array(z.object({ role: z.string().optional(), roles: z.array(z.string()).optional() })).optional(),
});
const RoleResponse = z.object({ rank: z.number().int().min(0).max(255) });
const LegacyRolesResponse = z.object({
  data: z.array(z.object({ group: z.object({ id: z.union([z.number(), z.string()]) }), role: z.object({ rank: z.number().int() }) })),
});

function retryAfterMs(header: string | null): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_BACKOFF_MS);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.min(Math.max(date - Date.now(), 0), MAX_BACKOFF_MS);
}

async function getJson(url: string, headers: Record<string, string>): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), redirect: 'error' });
  } catch (error) {
    throw new GroupApiError(`group service unreachable: ${error instanceof Error ? error.message : String(error)}`, null, null);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new GroupApiError(`group service answered ${response.status}`, response.status, retryAfterMs(response.headers.get('retry-after')));
  }
  try {
    return await response.json();
  } catch {
    throw new GroupApiError('group service sent invalid JSON', response.status, null);
  }
}

/**
 * Among several roles, an office (6–8) wins over higher ranks: rank 255 (group owner) is not an
 * office, and a member holding both should keep the office. Otherwise the highest rank counts.
 */
export function effectiveRank(ranks: readonly number[], isOffice: (rank: number) => boolean): number {
  const offices = ranks.filter(isOffice);
  const pool = offices.length > 0 ? offices : ranks;
  return pool.length > 0 ? Math.max(...pool) : 0;
}

export function createGroupRankService(settings: GroupRankSettings, isOffice: (rank: number) => boolean) {
  const apiBase = settings.apiBase.replace(/\/+$/, '');
  const roleRanks = new Map<string, { rank: number; expiresAt: number }>();

  async function roleRank(rolePath: string, accessToken: string): Promise<number | null> {
    const match = /^groups\/(\d+)\/roles\/(\d+)$/.exec(rolePath);
    if (!match) return null;
    const cached = roleRanks.get(rolePath);
    if (cached && cached.expiresAt > Date.now()) return cached.rank;
    const body = RoleResponse.safeParse(
      await getJson(`${apiBase}/cloud/v2/groups/${match[1]}/roles/${match[2]}`, { authorization: `Bearer ${accessToken}` }),
    );
    if (!body.success) throw new GroupApiError('group role response has an unexpected shape', 200, null);
    roleRanks.set(rolePath, { rank: body.data.rank, expiresAt: Date.now() + ROLE_RANK_CACHE_MS });
    return body.data.rank;
  }

  async function openCloudRank(groupId: string, userId: string, accessToken: string, office: boolean): Promise<number> {
    const filter = encodeURIComponent(`user == 'users/${userId}'`);
    const body = MembershipsResponse.safeParse(
      await getJson(`${apiBase}/cloud/v2/groups/${groupId}/memberships?maxPageSize=10&filter=${filter}`, {
        authorization: `Bearer ${accessToken}`,
      }),
    );
    if (!body.success) throw new GroupApiError('group memberships response has an unexpected shape', 200, null);
    const rolePaths = (body.data.groupMemberships ?? []).flatMap((m) => (m.roles && m.roles.length > 0 ? m.roles : m.role ? [m.role] : []));
    const ranks: number[] = [];
    for (const path of new Set(rolePaths)) {
      if (!path.startsWith(`groups/${groupId}/roles/`)) continue;
      const rank = await roleRank(path, accessToken);
      if (rank !== null) ranks.push(rank);
    }
    return office ? effectiveRank(ranks, isOffice) : effectiveRank(ranks, () => false);
  }

  async function fromOpenCloud(userId: string, accessToken: string): Promise<GroupRanks> {
    const [citizenRank, governmentRank] = await Promise.all([
      settings.citizenGroupId ? openCloudRank(settings.citizenGroupId, userId, accessToken, false) : 0,
      settings.governmentGroupId ? openCloudRank(settings.governmentGroupId, userId, accessToken, true) : 0,
    ]);
    return { citizenRank, governmentRank, groupsUnavailable: false, source: 'open-cloud' };
  }

  async function fromLegacy(userId: string, legacyBase: string): Promise<GroupRanks> {
    const base = legacyBase.replace(/\/+$/, '');
    const body = LegacyRolesResponse.safeParse(
      await getJson(`${base}/v2/users/${userId}/groups/roles?includeLocked=true&includeNotificationPreferences=false&discoveryType=0`, {}),
    );
    if (!body.success) throw new GroupApiError('legacy groups response has an unexpected shape', 200, null);
    const rankIn = (groupId: string | undefined) =>
      groupId ? Math.max(0, ...body.data.data.filter((d) => String(d.group.id) === groupId).map((d) => d.role.rank)) : 0;
    return {
      citizenRank: rankIn(settings.citizenGroupId),
      governmentRank: rankIn(settings.governmentGroupId),
      groupsUnavailable: false,
      source: 'legacy',
    };
  }

  return {
    async lookup(userId: string, accessToken: string | null): Promise<GroupRanks> {
      let failure: GroupApiError | null = null;
      if (accessToken) {
        try {
          return await fromOpenCloud(userId, accessToken);
        } catch (error) {
          failure = error instanceof GroupApiError ? error : new GroupApiError(String(error), null, null);
          settings.log?.('Open Cloud group lookup failed', { userId, status: failure.status, reason: failure.message });
        }
      }
      if (settings.legacyGroupsBase) {
        try {
          return await fromLegacy(userId, settings.legacyGroupsBase);
        } catch (error) {
          const legacyFailure = error instanceof GroupApiError ? error : new GroupApiError(String(error), null, null);
          settings.log?.('legacy group lookup failed', { userId, status: legacyFailure.status, reason: legacyFailure.message });
          failure ??= legacyFailure;
        }
      }
      return {
        citizenRank: 0,
        governmentRank: 0,
        groupsUnavailable: true,
        source: 'none',
        retryAfterMs: failure?.retryAfterMs ?? DEFAULT_BACKOFF_MS,
      };
    },

    /** For tests and diagnostics. */
    cachedRoleCount(): number {
      return roleRanks.size;
    },
  };
}

export type GroupRankService = ReturnType<typeof createGroupRankService>;
