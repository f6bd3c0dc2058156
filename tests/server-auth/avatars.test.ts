/** GET /avatar/{userId}: the headshot fetched server-side and cached, or an initials SVG. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { signInAs } from './browser.ts';

let stack: Stack;
/** A stand-in image host that counts its requests, so caching can be observed. */
let imageHost: http.Server;
let imageHostUrl: string;
const hits = new Map<string, number>();
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  imageHost = http.createServer((req, res) => {
    hits.set(req.url ?? '', (hits.get(req.url ?? '') ?? 0) + 1);
    if (req.url === '/ok.png') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length });
      res.end(PNG);
    } else if (req.url === '/script.svg') {
      res.writeHead(200, { 'content-type': 'image/svg+xml' });
      res.end('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    } else if (req.url === '/redirect.png') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' });
      res.end();
    } else {
      res.writeHead(500);
      res.end();
    }
  });
  await new Promise<void>((resolve) => imageHost.listen(0, '127.0.0.1', resolve));
  imageHostUrl = `http://127.0.0.1:${(imageHost.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await stack?.close();
  await new Promise((resolve) => imageHost?.close(resolve));
});

async function userWithAvatar(id: string, displayName: string, avatarUrl: string | null) {
  await stack.context.users.upsert({ id, username: `u${id}`, displayName, avatarUrl, citizenRank: 1, governmentRank: 0 });
}

async function getAvatar(id: string) {
  const response = await fetch(new URL(`/avatar/${id}`, stack.baseUrl));
  return { status: response.status, type: response.headers.get('content-type') ?? '', cache: response.headers.get('cache-control'), csp: response.headers.get('content-security-policy'), body: Buffer.from(await response.arrayBuffer()) };
}

describe('a user with a headshot', () => {
  it('gets the provider image (the userinfo picture) through our own origin, cacheable for an hour', async () => {
    await signInAs(stack, 'Citizen');
    const avatar = await getAvatar('2001');
    expect(avatar.status).toBe(200);
    expect(avatar.type).toBe('image/png');
    expect(avatar.cache).toBe('public, max-age=3600');
    expect(avatar.body.subarray(0, 8)).toEqual(Buffer.from('89504e470d0a1a0a', 'hex'));
  });

  it('is fetched from the image host once, then served from memory', async () => {
    await userWithAvatar('5001', 'Cached Person', `${imageHostUrl}/ok.png`);
    for (let i = 0; i < 3; i += 1) {
      const avatar = await getAvatar('5001');
      expect(avatar.status).toBe(200);
      expect(avatar.body).toEqual(PNG);
    }
    expect(hits.get('/ok.png')).toBe(1);
  });
});

describe('the initials fallback', () => {
  it('is used when the user has no headshot', async () => {
    await signInAs(stack, 'Leader of the House of Commons');
    const avatar = await getAvatar('2007');
    expect(avatar.status).toBe(200);
    expect(avatar.type).toBe('image/svg+xml; charset=utf-8');
    expect(avatar.cache).toBe('public, max-age=3600');
    expect(avatar.csp).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(avatar.body.toString()).toContain('>LL</text>');
  });

  it('is used when the image host fails, refuses SVG, or redirects', async () => {
    for (const [id, path] of [['5002', '/broken.png'], ['5003', '/script.svg'], ['5004', '/redirect.png']] as const) {
      await userWithAvatar(id, 'Fallback Fiona', `${imageHostUrl}${path}`);
      const avatar = await getAvatar(id);
      expect(avatar.status, path).toBe(200);
      expect(avatar.type, path).toMatch(/^image\/svg\+xml/);
      expect(avatar.body.toString(), path).toContain('>FF</text>');
      expect(avatar.body.toString(), path).not.toContain('<script');
    }
  });

  it('never fetches anything but http(s) addresses', async () => {
    await stack.context.db.insertInto('users').values({
      id: '5005', username: 'fileuser', display_name: 'File <User>', avatar_url: 'file:///etc/passwd', citizen_rank: 0, government_rank: 0,
      groups_unavailable: 0, roles_checked_at: null, created_at: new Date().toISOString(), updated_at: new Date().toISOString(),
    }).execute();
    const avatar = await getAvatar('5005');
    expect(avatar.type).toMatch(/^image\/svg\+xml/);
    // Names are escaped inside the SVG.
    expect(avatar.body.toString()).toContain('>F&#60;</text>');
  });

  it('answers unknown users with a neutral avatar', async () => {
    const avatar = await getAvatar('123456789');
    expect(avatar.status).toBe(200);
    expect(avatar.body.toString()).toContain('>?</text>');
  });
});

describe('bad user ids', () => {
  it('are refused with 400', async () => {
    for (const id of ['abc', '12a', '-1', '1.5', '9'.repeat(30)]) {
      const avatar = await getAvatar(id);
      expect(avatar.status, id).toBe(400);
      expect(avatar.type).toMatch(/application\/problem\+json/);
    }
  });
});
