/**
 * Group ranks go stale: someone promoted or removed on Roblox must gain or lose rights within
 * minutes, not at their next sign-in. Before every unsafe API call (signing, creating, every staff
 * action; sign-in itself excepted) ranks older than ten minutes are fetched again with the
 * session's access token, and `request.viewer` is rebuilt before the route's own checks run.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { HttpError } from '../http/problem.ts';
import { routeScope } from '../http/route-scope.ts';
import { clearSessionCookie, type Viewer } from '../http/viewer.ts';
import { toUser } from '../users/user-repository.ts';
import type { GroupRankService, GroupRanks } from './group-ranks.ts';
import { SessionEndedError, type SessionTokenKeeper } from './session-tokens.ts';

export const ROLE_RECHECK_MS = 10 * 60 * 1000;
/** When the token endpoint itself is down we cannot ask Roblox; try again after this long. */
const PROVIDER_DOWN_BACKOFF_MS = 30_000;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function createRankFreshness(deps: { context: AppContext; keeper: SessionTokenKeeper; groupRanks: GroupRankService }) {
  const { context, keeper, groupRanks } = deps;
  /** userId → epoch ms before which a user whose groups were unavailable is not re-checked. */
  const retryNotBefore = new Map<string, number>();
  const inFlight = new Map<string, Promise<UserRow | null>>();

  function isDue(viewer: Viewer, now: number): boolean {
    // Sessions made in-process (test harnesses, the benchmark) hold no provider tokens to ask with.
    if (viewer.session.tokens === null) return false;
    const row = viewer.userRow;
    const checkedAt = row.roles_checked_at ? Date.parse(row.roles_checked_at) : Number.NaN;
    if (Number.isNaN(checkedAt) || now - checkedAt >= ROLE_RECHECK_MS) return true;
    return row.groups_unavailable === 1 && now >= (retryNotBefore.get(row.id) ?? 0);
  }

  function remember(userId: string, ranks: GroupRanks, now: number): void {
    if (ranks.groupsUnavailable) retryNotBefore.set(userId, now + (ranks.retryAfterMs ?? PROVIDER_DOWN_BACKOFF_MS));
    else retryNotBefore.delete(userId);
  }

  async function recheck(request: FastifyRequest, viewer: Viewer): Promise<UserRow | null> {
    const userId = viewer.userRow.id;
    let ranks: GroupRanks;
    try {
      const accessToken = await keeper.freshAccessToken(viewer.session.id_hash);
      if (accessToken === null) return null;
      ranks = await groupRanks.lookup(userId, accessToken);
    } catch (error) {
      if (error instanceof SessionEndedError) throw error;
      // The provider could not refresh our token: we cannot confirm any rank, so none is granted.
      request.log.warn({ err: error, userId }, 'could not refresh Roblox tokens to re-check group ranks');
      ranks = { citizenRank: 0, governmentRank: 0, groupsUnavailable: true, source: 'none', retryAfterMs: PROVIDER_DOWN_BACKOFF_MS };
    }
    const now = context.now();
    remember(userId, ranks, now.getTime());
    const row = await context.users.updateRanks(userId, ranks, now);
    const before = viewer.userRow;
    if (row && (row.citizen_rank !== before.citizen_rank || row.government_rank !== before.government_rank || row.groups_unavailable !== before.groups_unavailable)) {
      request.log.info(
        { userId, citizenRank: row.citizen_rank, governmentRank: row.government_rank, groupsUnavailable: row.groups_unavailable === 1 },
        'group ranks changed',
      );
    }
    return row ?? null;
  }

  return {
    register(app: FastifyInstance): void {
      // onRequest, after the viewer, CSRF and maintenance hooks and before each route's own access
      // check (route-contract.ts), so that check already sees the fresh ranks.
      app.addHook('onRequest', async (request, reply) => {
        if (SAFE_METHODS.has(request.method)) return;
        if (!routeScope(request).refreshesRanks) return;
        const viewer = request.viewer;
        if (!viewer || !isDue(viewer, context.now().getTime())) return;

        const key = viewer.session.id_hash;
        let flight = inFlight.get(key);
        if (!flight) {
          flight = recheck(request, viewer).finally(() => inFlight.delete(key));
          inFlight.set(key, flight);
        }
        let row: UserRow | null;
        try {
          row = await flight;
        } catch (error) {
          if (!(error instanceof SessionEndedError)) throw error;
          request.log.info({ userId: viewer.userRow.id, reason: error.message }, 'session ended: Roblox authorization is gone');
          await context.sessions.destroy(key);
          if (!viewer.viaBearer) clearSessionCookie(reply, context.cookie);
          request.viewer = null;
          throw new HttpError(401, ERRORS.loginRequired);
        }
        if (row) {
          viewer.userRow = row;
          viewer.user = toUser(row, context.config.adminUserId);
        }
      });
    },
  };
}
