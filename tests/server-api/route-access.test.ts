/**
 * The per-route access check (src-server/http/route-access.ts): a route's `config.access` is checked
 * once, before its handler, and the handler receives the checked viewer through `viewerFor`, which
 * refuses an access the route did not declare or a check that never ran.
 */
// The OpenAPI fields of a route schema (operationId, tags, hide) are @fastify/swagger's additions to Fastify's types.
import type {} from '@fastify/swagger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { canManageBans } from '../../src-shared/rules/permissions.ts';
import type { ServerApp } from '../../src-server/app.ts';
import { permitted, PUBLIC, SIGNED_IN } from '../../src-server/http/route-access.ts';
import { ROLE_PROFILES, startTestApi, type TestApi } from '../support/api-harness.ts';

const BANNERS = permitted(canManageBans, ERRORS.adminOnly);
const handled: string[] = [];

/** Routes that use the plumbing rightly and wrongly; documented (schema) routes get the route contract's check. */
function probeRoutes(app: ServerApp): void {
  const documented = (operationId: string) => ({ operationId, tags: ['Sign-in'], summary: operationId, hide: false });
  app.get('/api/probe/public', { config: { access: PUBLIC }, schema: documented('probePublic') }, async (request) => {
    handled.push('public');
    return { id: request.viewerFor(PUBLIC)?.user.id ?? null };
  });
  app.post('/api/probe/banners', { config: { access: BANNERS }, schema: documented('probeBanners') }, async (request) => {
    handled.push('banners');
    return { id: request.viewerFor(BANNERS).user.id };
  });
  app.get('/api/probe/mismatch', { config: { access: SIGNED_IN }, schema: documented('probeMismatch') }, async (request) => {
    handled.push('mismatch');
    return { id: request.viewerFor(BANNERS).user.id };
  });
  // Hidden from the document, so the route contract installs no check: the viewer must not be handed out.
  app.get('/api/probe/unchecked', { config: { access: SIGNED_IN }, schema: { hide: true } }, async (request) => {
    handled.push('unchecked');
    return { id: request.viewerFor(SIGNED_IN).user.id };
  });
}

let api: TestApi;
let citizen: string;
let admin: string;

beforeAll(async () => {
  api = await startTestApi({}, { extraRoutes: probeRoutes });
  citizen = await api.signInAs('citizen');
  admin = await api.signInAs('admin');
});
afterAll(() => api?.close());

describe('one access check per route', () => {
  it('public routes hand the handler the viewer when there is one, else null', async () => {
    expect((await api.request({ url: '/api/probe/public' })).json()).toEqual({ id: null });
    expect((await api.request({ url: '/api/probe/public', cookie: citizen })).json()).toEqual({ id: ROLE_PROFILES.citizen.id });
  });

  it('refuses callers without the right before the handler runs, and hands the checked viewer to those with it', async () => {
    handled.length = 0;
    const visitor = await api.request({ method: 'POST', url: '/api/probe/banners' });
    expect([visitor.statusCode, visitor.json().detail]).toEqual([401, ERRORS.loginRequired]);
    const refused = await api.request({ method: 'POST', url: '/api/probe/banners', cookie: citizen });
    expect([refused.statusCode, refused.json().detail]).toEqual([403, ERRORS.adminOnly]);
    expect(handled).toEqual([]);
    const allowed = await api.request({ method: 'POST', url: '/api/probe/banners', cookie: admin });
    expect([allowed.statusCode, allowed.json()]).toEqual([200, { id: ROLE_PROFILES.admin.id }]);
    expect(handled).toEqual(['banners']);
  });

  it('answers 500, handing out no viewer, when a handler asks for another access than its route declares', async () => {
    const response = await api.request({ url: '/api/probe/mismatch', cookie: admin });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain(ROLE_PROFILES.admin.id);
  });

  it('answers 500 when the route declared an access whose check never ran', async () => {
    const response = await api.request({ url: '/api/probe/unchecked', cookie: admin });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain(ROLE_PROFILES.admin.id);
  });
});
