import { fetchUserInfo, type Configuration } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEV_CITIZEN_GROUP_ID as CITIZEN,
  DEV_GOVERNMENT_GROUP_ID as GOVERNMENT,
  startDevProvider,
  type DevProvider,
} from '../../src-server/dev/provider/index.ts';
import { personaId } from '../support/fixtures.ts';
import { TEST_CLIENTS, discoverClient, getJson, membershipsUrl, tokensFor } from './helpers.ts';

interface Membership { path: string; createTime: string; updateTime: string; user: string; role: string; roles: string[] }
interface Role { path: string; id: string; displayName: string; rank: number; memberCount: number; permissions: unknown }

let dev: DevProvider;
let config: Configuration;
const accessTokens = new Map<string, string>();

function token(label: string): string {
  const value = accessTokens.get(label);
  if (!value) throw new Error(`no token for ${label}`);
  return value;
}

beforeAll(async () => {
  dev = await startDevProvider({ clients: TEST_CLIENTS });
  config = await discoverClient(dev);
  for (const label of ['Citizen', 'Non-citizen', 'Cabinet Minister', 'Leader of the House of Commons', 'Prime Minister', 'System Administrator']) {
    accessTokens.set(label, (await tokensFor(config, label)).access_token);
  }
});

afterAll(async () => {
  await dev?.close();
});

/** What the server does: membership → role path → GroupRole.rank (0 when not a member). */
async function rankVia(groupId: string, label: string): Promise<{ rank: number; role?: Role; membership?: Membership }> {
  const at = token(label);
  const { status, body } = await getJson(membershipsUrl(dev, groupId, personaId(label)), at);
  expect(status).toBe(200);
  expect(body.nextPageToken).toBe('');
  const memberships = body.groupMemberships as Membership[] | undefined;
  if (!memberships) return { rank: 0 };
  expect(memberships).toHaveLength(1);
  const membership = memberships[0] as Membership;
  const roleResponse = await getJson(new URL(`/cloud/v2/${membership.role}`, dev.apiBase), at);
  expect(roleResponse.status).toBe(200);
  const role = roleResponse.body as unknown as Role;
  return { rank: role.rank, role, membership };
}

describe('Open Cloud group memberships and roles', () => {
  it.each([
    ['Citizen', 1, 0],
    ['Non-citizen', 0, 0],
    ['Cabinet Minister', 1, 6],
    ['Leader of the House of Commons', 1, 7],
    ['Prime Minister', 1, 8],
    ['System Administrator', 1, 0],
  ])('%s has citizen rank %i and government rank %i', async (label, citizenRank, governmentRank) => {
    expect((await rankVia(CITIZEN, label)).rank).toBe(citizenRank);
    expect((await rankVia(GOVERNMENT, label)).rank).toBe(governmentRank);
  });

  it('returns the Roblox membership shape, with the role resolvable to the office', async () => {
    const { membership, role } = await rankVia(GOVERNMENT, 'Cabinet Minister');
    expect(membership).toEqual({
      path: expect.stringMatching(new RegExp(`^groups/${GOVERNMENT}/memberships/[\\w-]+$`)),
      createTime: expect.any(String),
      updateTime: expect.any(String),
      user: 'users/2006',
      role: expect.stringMatching(new RegExp(`^groups/${GOVERNMENT}/roles/\\d+$`)),
      roles: [membership?.role],
    });
    expect(Number.isNaN(Date.parse(membership?.createTime ?? ''))).toBe(false);
    expect(role).toMatchObject({
      path: membership?.role,
      id: membership?.role.split('/').pop(),
      displayName: 'Cabinet Minister',
      rank: 6,
      memberCount: 1,
      permissions: {},
    });
  });

  it('omits the groupMemberships key entirely for a non-member', async () => {
    for (const group of [CITIZEN, GOVERNMENT]) {
      const { status, body } = await getJson(membershipsUrl(dev, group, '2002'), token('Non-citizen'));
      expect(status).toBe(200);
      expect(body).toEqual({ nextPageToken: '' });
    }
  });

  it('lists roles in pages with distinct opaque ids, each matching GetGroupRole', async () => {
    const roles: Role[] = [];
    let pageToken = '';
    let pages = 0;
    do {
      const url = new URL(`/cloud/v2/groups/${GOVERNMENT}/roles?maxPageSize=2&pageToken=${encodeURIComponent(pageToken)}`, dev.apiBase);
      const { status, body } = await getJson(url, token('Prime Minister'));
      expect(status).toBe(200);
      roles.push(...(body.groupRoles as Role[]));
      pageToken = String(body.nextPageToken);
      pages += 1;
    } while (pageToken !== '' && pages < 10);
    expect(pages).toBe(3);
    expect(roles.map((r) => [r.rank, r.displayName])).toEqual([
      [0, 'Guest'], [1, 'Member'], [6, 'Cabinet Minister'], [7, 'Leader of the House of Commons'], [8, 'Prime Minister'], [255, 'Owner'],
    ]);

    const citizenRoles = (await getJson(new URL(`/cloud/v2/groups/${CITIZEN}/roles?maxPageSize=20`, dev.apiBase), token('Citizen'))).body.groupRoles as Role[];
    const ids = [...roles, ...citizenRoles].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => /^\d+$/.test(id))).toBe(true);

    for (const role of roles) {
      const single = await getJson(new URL(`/cloud/v2/groups/${GOVERNMENT}/roles/${role.id}`, dev.apiBase), token('Citizen'));
      expect(single.body).toMatchObject({ id: role.id, rank: role.rank, path: `groups/${GOVERNMENT}/roles/${role.id}` });
    }
  });

  it('filters memberships by role and pages through an unfiltered listing', async () => {
    const roles = (await getJson(new URL(`/cloud/v2/groups/${GOVERNMENT}/roles?maxPageSize=20`, dev.apiBase), token('Citizen'))).body.groupRoles as Role[];
    const pm = roles.find((r) => r.rank === 8);
    const byRole = new URL(`/cloud/v2/groups/${GOVERNMENT}/memberships`, dev.apiBase);
    byRole.searchParams.set('filter', `role == 'groups/${GOVERNMENT}/roles/${pm?.id ?? ''}'`);
    const filtered = await getJson(byRole, token('Citizen'));
    expect((filtered.body.groupMemberships as Membership[]).map((m) => m.user)).toEqual(['users/2008']);

    const users: string[] = [];
    let pageToken = '';
    do {
      const { body } = await getJson(new URL(`/cloud/v2/groups/${CITIZEN}/memberships?maxPageSize=2&pageToken=${encodeURIComponent(pageToken)}`, dev.apiBase), token('Citizen'));
      users.push(...(body.groupMemberships as Membership[]).map((m) => m.user));
      pageToken = String(body.nextPageToken);
    } while (pageToken !== '');
    expect(users.sort()).toEqual(['users/2000', 'users/2001', 'users/2006', 'users/2007', 'users/2008']);
  });

  it('answers bad filters, unknown groups and unknown roles with Open Cloud errors', async () => {
    const badFilter = await getJson(new URL(`/cloud/v2/groups/${CITIZEN}/memberships?filter=${encodeURIComponent('user != 1')}`, dev.apiBase), token('Citizen'));
    expect(badFilter.status).toBe(400);
    expect(badFilter.body).toMatchObject({ code: 'INVALID_ARGUMENT' });

    const unknownGroup = await getJson(membershipsUrl(dev, '123', '2001'), token('Citizen'));
    expect(unknownGroup.status).toBe(404);
    expect(unknownGroup.body).toMatchObject({ code: 'NOT_FOUND' });

    const unknownRole = await getJson(new URL(`/cloud/v2/groups/${CITIZEN}/roles/1`, dev.apiBase), token('Citizen'));
    expect(unknownRole.status).toBe(404);
  });

  it('requires a bearer access token issued by this provider', async () => {
    const urls = [
      membershipsUrl(dev, CITIZEN, '2001'),
      new URL(`/cloud/v2/groups/${CITIZEN}/roles`, dev.apiBase),
    ];
    for (const url of urls) {
      for (const authorization of [undefined, 'Bearer not-a-real-token', `Basic ${token('Citizen')}`]) {
        const response = await fetch(url, authorization ? { headers: { authorization } } : {});
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({ code: 'UNAUTHENTICATED', message: expect.any(String) });
      }
    }
  });

  it('simulates rate limiting and outages, then recovers', async () => {
    const url = membershipsUrl(dev, CITIZEN, '2001');
    const rolesUrl = new URL(`/cloud/v2/groups/${CITIZEN}/roles`, dev.apiBase);
    try {
      dev.setGroupApiFailure('rate-limit');
      for (const target of [url, rolesUrl]) {
        const limited = await getJson(target, token('Citizen'));
        expect(limited.status).toBe(429);
        expect(limited.headers.get('retry-after')).toBe('1');
        expect(limited.body).toEqual({ code: 'RESOURCE_EXHAUSTED', message: expect.any(String) });
      }
      // The legacy fallback stays up, so the server's fallback path can be exercised.
      expect((await getJson(new URL('/v2/users/2001/groups/roles', dev.apiBase))).status).toBe(200);

      dev.setGroupApiFailure('server-error');
      const down = await getJson(url, token('Citizen'));
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ code: 'UNAVAILABLE' });
    } finally {
      dev.setGroupApiFailure('none');
    }
    const ok = await getJson(url, token('Citizen'));
    expect(ok.status).toBe(200);
    expect(ok.body.groupMemberships).toHaveLength(1);
  });
});

describe('legacy groups endpoint', () => {
  it('returns every group with rank for a member, anonymously', async () => {
    const { status, body } = await getJson(new URL('/v2/users/2008/groups/roles', dev.apiBase));
    expect(status).toBe(200);
    expect(body.data).toEqual([
      { group: { id: Number(CITIZEN), name: expect.any(String), memberCount: 5, hasVerifiedBadge: false }, role: { id: expect.any(Number), name: 'Citizen', rank: 1 } },
      { group: { id: Number(GOVERNMENT), name: expect.any(String), memberCount: 3, hasVerifiedBadge: false }, role: { id: expect.any(Number), name: 'Prime Minister', rank: 8 } },
    ]);
  });

  it('returns an empty list for a non-member and a legacy error for an unknown user', async () => {
    expect((await getJson(new URL('/v2/users/2002/groups/roles', dev.apiBase))).body).toEqual({ data: [] });
    const unknown = await getJson(new URL('/v2/users/987654/groups/roles', dev.apiBase));
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ errors: [{ code: 3, message: 'The user is invalid or does not exist.' }] });
  });
});

describe('avatar headshots', () => {
  it('reports Completed with a local PNG URL, or Blocked with null for personas without a picture', async () => {
    const { status, body } = await getJson(new URL('/v1/users/avatar-headshot?userIds=2001,2002,2007,987654&size=150x150&format=Png&isCircular=false', dev.apiBase));
    expect(status).toBe(200);
    expect(body.data).toEqual([
      { targetId: 2001, state: 'Completed', imageUrl: `${dev.apiBase}/headshots/2001.png`, version: expect.any(String) },
      { targetId: 2002, state: 'Blocked', imageUrl: null, version: expect.any(String) },
      { targetId: 2007, state: 'Blocked', imageUrl: null, version: expect.any(String) },
      { targetId: 987654, state: 'Error', imageUrl: null, version: expect.any(String) },
    ]);

    const image = await fetch(`${dev.apiBase}/headshots/2001.png`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(bytes.readUInt32BE(16)).toBe(150);
    expect((await fetch(`${dev.apiBase}/headshots/2002.png`)).status).toBe(404);
  });

  it('agrees with userinfo: picture is null for a persona without a headshot', async () => {
    const userinfo = await fetchUserInfo(config, token('Non-citizen'), '2002');
    expect(userinfo).toHaveProperty('picture', null);
    expect(userinfo.preferred_username).toBe('DevVisitor');
  });

  it('validates parameters with the legacy error codes', async () => {
    const missing = await getJson(new URL('/v1/users/avatar-headshot?size=150x150', dev.apiBase));
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ errors: [{ code: 4 }] });
    const badSize = await getJson(new URL('/v1/users/avatar-headshot?userIds=2001&size=151x151', dev.apiBase));
    expect(badSize.body).toMatchObject({ errors: [{ code: 3 }] });
    const badFormat = await getJson(new URL('/v1/users/avatar-headshot?userIds=2001&format=Gif', dev.apiBase));
    expect(badFormat.body).toMatchObject({ errors: [{ code: 2 }] });
  });
});
