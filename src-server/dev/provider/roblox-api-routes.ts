import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { Directory, DevRole, DevUser } from './directory.ts';
import { renderHeadshotPng } from './headshot-png.ts';
import { escapeHtml, pageLayout, sendHtml, sendJson } from './http-util.ts';

export type GroupApiFailureMode = 'none' | 'rate-limit' | 'server-error';

const HEADSHOT_SIZES = new Set(['48x48', '50x50', '60x60', '75x75', '100x100', '110x110', '150x150', '180x180', '352x352', '420x420', '720x720']);
const HEADSHOT_FORMATS = new Set(['png', 'jpeg', 'webp']);
const MAX_HEADSHOT_IDS = 100;

function openCloudError(res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { code, message }, headers);
}

/** Legacy web API (groups/thumbnails.roblox.com) error envelope. */
function legacyError(res: ServerResponse, status: number, code: number, message: string): void {
  sendJson(res, status, { errors: [{ code, message, userFacingMessage: 'Something went wrong' }] });
}

// Page tokens are opaque on Roblox; base64url keeps them opaque here so callers cannot
// construct them, while the offset inside stays easy to debug.
function encodePageToken(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}

function decodePageToken(token: string | null): number | undefined {
  if (!token) return 0;
  const match = /^o:(\d{1,9})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : undefined;
}

function parsePageSize(value: string | null, max: number, fallback: number): number | undefined {
  if (value === null || value === '') return fallback;
  if (!/^\d{1,6}$/.test(value)) return undefined;
  const n = Number(value);
  if (n === 0) return fallback;
  return Math.min(n, max);
}

type MembershipFilter =
  | { kind: 'none' }
  | { kind: 'users'; userIds: string[] }
  | { kind: 'role'; groupId: string; roleId: string };

/** The two CEL forms Roblox documents for memberships: `==` and `in [...]`. */
function parseMembershipFilter(filter: string | null): MembershipFilter | undefined {
  if (filter === null || filter.trim() === '') return { kind: 'none' };
  const quoted = String.raw`(?:'([^']*)'|"([^"]*)")`;
  const eq = new RegExp(String.raw`^\s*(user|role)\s*==\s*${quoted}\s*$`).exec(filter);
  if (eq) {
    const value = eq[2] ?? eq[3] ?? '';
    if (eq[1] === 'user') {
      const user = /^users\/(\d+)$/.exec(value);
      return user ? { kind: 'users', userIds: [user[1] ?? ''] } : undefined;
    }
    const role = /^groups\/(\d+)\/roles\/(\d+)$/.exec(value);
    return role ? { kind: 'role', groupId: role[1] ?? '', roleId: role[2] ?? '' } : undefined;
  }
  const inList = /^\s*user\s+in\s*\[(.*)\]\s*$/.exec(filter);
  if (inList) {
    const items = (inList[1] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
    const userIds: string[] = [];
    for (const item of items) {
      const m = new RegExp(String.raw`^${quoted}$`).exec(item);
      const user = /^users\/(\d+)$/.exec(m?.[1] ?? m?.[2] ?? '');
      if (!user) return undefined;
      userIds.push(user[1] ?? '');
    }
    return userIds.length > 0 && userIds.length <= 50 ? { kind: 'users', userIds } : undefined;
  }
  return undefined;
}

export function createRobloxApiRoutes(deps: {
  provider: Provider;
  directory: Directory;
  apiBase: string;
  groupApiFailure: () => GroupApiFailureMode;
}) {
  const { provider, directory, apiBase } = deps;
  const headshotCache = new Map<string, Buffer>();

  function rolePath(role: DevRole): string {
    return `groups/${role.groupId}/roles/${role.id}`;
  }

  function roleResource(role: DevRole) {
    return {
      path: rolePath(role),
      createTime: role.createTime,
      updateTime: role.createTime,
      id: role.id,
      displayName: role.displayName,
      description: role.description,
      rank: role.rank,
      memberCount: role.rank === 0 ? 0 : directory.memberCount(role.groupId, role.rank),
      permissions: {},
    };
  }

  function membershipResource(user: DevUser, groupId: string, role: DevRole) {
    return {
      path: `groups/${groupId}/memberships/${Buffer.from(`${groupId}:${user.id}`).toString('base64url')}`,
      createTime: user.joinedAt,
      updateTime: user.joinedAt,
      user: `users/${user.id}`,
      role: rolePath(role),
      roles: [rolePath(role)],
    };
  }

  /** Open Cloud accepts this provider's OAuth access tokens, like Roblox accepts its own. */
  async function requireAccessToken(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    const token = match?.[1] ? await provider.AccessToken.find(match[1]) : undefined;
    if (!token) {
      openCloudError(res, 401, 'UNAUTHENTICATED', 'Invalid, expired or missing OAuth access token.', {
        'WWW-Authenticate': 'Bearer',
      });
      return false;
    }
    return true;
  }

  function injectedFailure(res: ServerResponse): boolean {
    const mode = deps.groupApiFailure();
    if (mode === 'rate-limit') {
      openCloudError(res, 429, 'RESOURCE_EXHAUSTED', 'Too many requests (simulated by the development provider).', {
        'Retry-After': '1',
        'x-ratelimit-limit': '90',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': '1',
      });
      return true;
    }
    if (mode === 'server-error') {
      openCloudError(res, 503, 'UNAVAILABLE', 'Service unavailable (simulated by the development provider).');
      return true;
    }
    return false;
  }

  function listMemberships(res: ServerResponse, url: URL, groupId: string): void {
    const filter = parseMembershipFilter(url.searchParams.get('filter'));
    const pageSize = parsePageSize(url.searchParams.get('maxPageSize'), 100, 10);
    const offset = decodePageToken(url.searchParams.get('pageToken'));
    if (!filter || pageSize === undefined || offset === undefined) {
      openCloudError(res, 400, 'INVALID_ARGUMENT', 'Invalid filter, maxPageSize or pageToken.');
      return;
    }

    const wildcard = groupId === '-';
    if (wildcard && filter.kind !== 'users') {
      openCloudError(res, 400, 'INVALID_ARGUMENT', "Listing memberships across groups requires a filter on user.");
      return;
    }
    if (!wildcard && !directory.findGroup(groupId)) {
      openCloudError(res, 404, 'NOT_FOUND', `Group ${groupId} not found.`);
      return;
    }
    const groupIds = wildcard ? [directory.citizenGroupId, directory.governmentGroupId] : [groupId];

    const all: ReturnType<typeof membershipResource>[] = [];
    for (const gid of groupIds) {
      let users = directory.membersOf(gid);
      if (filter.kind === 'users') {
        users = filter.userIds.map((id) => directory.findUser(id)).filter((u): u is DevUser => u !== undefined && directory.rankIn(u, gid) > 0);
      }
      for (const user of users) {
        const role = directory.roleOf(user, gid);
        if (!role) continue;
        if (filter.kind === 'role' && (filter.groupId !== gid || filter.roleId !== role.id)) continue;
        all.push(membershipResource(user, gid, role));
      }
    }

    const page = all.slice(offset, offset + pageSize);
    const nextPageToken = offset + pageSize < all.length ? encodePageToken(offset + pageSize) : '';
    // Google-style APIs omit empty repeated fields; the server must cope with a missing key.
    sendJson(res, 200, page.length > 0 ? { groupMemberships: page, nextPageToken } : { nextPageToken });
  }

  function listRoles(res: ServerResponse, url: URL, groupId: string): void {
    if (!directory.findGroup(groupId)) {
      openCloudError(res, 404, 'NOT_FOUND', `Group ${groupId} not found.`);
      return;
    }
    const pageSize = parsePageSize(url.searchParams.get('maxPageSize'), 20, 10);
    const offset = decodePageToken(url.searchParams.get('pageToken'));
    if (pageSize === undefined || offset === undefined) {
      openCloudError(res, 400, 'INVALID_ARGUMENT', 'Invalid maxPageSize or pageToken.');
      return;
    }
    const roles = directory.listRoles(groupId);
    const page = roles.slice(offset, offset + pageSize).map(roleResource);
    const nextPageToken = offset + pageSize < roles.length ? encodePageToken(offset + pageSize) : '';
    sendJson(res, 200, page.length > 0 ? { groupRoles: page, nextPageToken } : { nextPageToken });
  }

  function getRole(res: ServerResponse, groupId: string, roleId: string): void {
    const role = directory.findGroup(groupId) ? directory.findRole(groupId, roleId) : undefined;
    if (!role) {
      openCloudError(res, 404, 'NOT_FOUND', `Role ${roleId} not found in group ${groupId}.`);
      return;
    }
    sendJson(res, 200, roleResource(role));
  }

  function legacyUserGroupRoles(res: ServerResponse, userId: string): void {
    const user = directory.findUser(userId);
    if (!user) {
      legacyError(res, 400, 3, 'The user is invalid or does not exist.');
      return;
    }
    const data = [directory.citizenGroupId, directory.governmentGroupId].flatMap((gid) => {
      const role = directory.roleOf(user, gid);
      const group = directory.findGroup(gid);
      if (!role || !group) return [];
      return [{
        group: { id: Number(group.id), name: group.name, memberCount: directory.memberCount(gid), hasVerifiedBadge: false },
        role: { id: Number(role.id), name: role.displayName, rank: role.rank },
      }];
    });
    sendJson(res, 200, { data });
  }

  function avatarHeadshots(res: ServerResponse, url: URL): void {
    const rawIds = url.searchParams.get('userIds') ?? '';
    const ids = rawIds.split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (ids.length === 0 || !ids.every((id) => /^\d{1,19}$/.test(id))) {
      legacyError(res, 400, 4, 'The requested Ids are invalid, of an invalid type or missing.');
      return;
    }
    if (ids.length > MAX_HEADSHOT_IDS) {
      legacyError(res, 400, 1, 'There are too many requested Ids.');
      return;
    }
    if (!HEADSHOT_SIZES.has(url.searchParams.get('size') ?? '48x48')) {
      legacyError(res, 400, 3, 'The requested size is invalid. Please see documentation for valid thumbnail size parameter name and format.');
      return;
    }
    if (!HEADSHOT_FORMATS.has((url.searchParams.get('format') ?? 'Png').toLowerCase())) {
      legacyError(res, 400, 2, 'The requested format is invalid. Please see documentation for valid thumbnail format parameter name and values.');
      return;
    }
    const data = [...new Set(ids)].map((id) => {
      const user = directory.findUser(id);
      if (!user) return { targetId: Number(id), state: 'Error', imageUrl: null, version: '' };
      if (user.picturePath === null) return { targetId: Number(id), state: 'Blocked', imageUrl: null, version: 'TN3' };
      return { targetId: Number(id), state: 'Completed', imageUrl: `${apiBase}${user.picturePath}`, version: 'TN3' };
    });
    sendJson(res, 200, { data });
  }

  function headshotImage(res: ServerResponse, userId: string): void {
    const user = directory.findUser(userId);
    if (!user || user.picturePath !== `/headshots/${userId}.png`) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Not Found');
      return;
    }
    let png = headshotCache.get(userId);
    if (!png) {
      png = renderHeadshotPng(userId);
      headshotCache.set(userId, png);
    }
    res.writeHead(200, {
      'Content-Type': 'image/png',
      'Content-Length': png.length,
      'Cache-Control': 'public, max-age=3600',
      // The petitions site embeds these from another origin (its own port).
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
    res.end(png);
  }

  function profilePage(res: ServerResponse, userId: string): void {
    const user = directory.findUser(userId);
    if (!user) {
      sendHtml(res, 404, pageLayout('Not found — development provider', '<h1>User not found</h1>'));
      return;
    }
    sendHtml(res, 200, pageLayout(`${user.displayName} — development provider`, `<h1>${escapeHtml(user.displayName)}</h1>
<p>@${escapeHtml(user.username)}, user ${escapeHtml(user.id)}${user.label ? ` (persona: ${escapeHtml(user.label)})` : ''}.</p>
<p>Citizen rank ${user.citizenRank}; government rank ${user.governmentRank}.</p>`));
  }

  /** Returns false when the path is not one of the Roblox-shaped API routes. */
  return async function handleRobloxApi(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const path = url.pathname;
    let m: RegExpExecArray | null;

    const route = (() => {
      if ((m = /^\/cloud\/v2\/groups\/(\d+|-)\/memberships$/.exec(path))) return { name: 'memberships', a: m[1] ?? '', b: '' } as const;
      if ((m = /^\/cloud\/v2\/groups\/(\d+)\/roles$/.exec(path))) return { name: 'roles', a: m[1] ?? '', b: '' } as const;
      if ((m = /^\/cloud\/v2\/groups\/(\d+)\/roles\/(\d+)$/.exec(path))) return { name: 'role', a: m[1] ?? '', b: m[2] ?? '' } as const;
      if ((m = /^\/v2\/users\/(\d+)\/groups\/roles$/.exec(path))) return { name: 'legacy-roles', a: m[1] ?? '', b: '' } as const;
      if (path === '/v1/users/avatar-headshot') return { name: 'headshots', a: '', b: '' } as const;
      if ((m = /^\/headshots\/(\d+)\.png$/.exec(path))) return { name: 'headshot-image', a: m[1] ?? '', b: '' } as const;
      if ((m = /^\/users\/(\d+)\/profile$/.exec(path))) return { name: 'profile', a: m[1] ?? '', b: '' } as const;
      return undefined;
    })();
    if (!route) return false;

    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Method Not Allowed');
      return true;
    }

    switch (route.name) {
      case 'memberships':
      case 'roles':
      case 'role':
        if (!(await requireAccessToken(req, res))) return true;
        if (injectedFailure(res)) return true;
        if (route.name === 'memberships') listMemberships(res, url, route.a);
        else if (route.name === 'roles') listRoles(res, url, route.a);
        else getRole(res, route.a, route.b);
        return true;
      case 'legacy-roles':
        legacyUserGroupRoles(res, route.a);
        return true;
      case 'headshots':
        avatarHeadshots(res, url);
        return true;
      case 'headshot-image':
        headshotImage(res, route.a);
        return true;
      case 'profile':
        profilePage(res, route.a);
        return true;
    }
  };
}
