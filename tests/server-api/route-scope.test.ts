/**
 * Every cross-cutting hook (maintenance, CSRF, viewer, cache-control; rank freshness is in
 * tests/server-auth/rank-freshness.test.ts) decides from the route the router matched, so a path spelt
 * differently either reaches the route with every hook applied, or reaches no route at all.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { scopeOfPattern } from '../../src-server/http/route-scope.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { body, seedStaffPetition, seedStaffTerm } from './staff-fixtures.ts';

let api: TestApi;
let citizen: string;

beforeAll(async () => {
  api = await startTestApi();
  citizen = await api.signInAs('citizen');
  const term = await seedStaffTerm(api, { startDate: '2020-01-01', endDate: '2099-12-31' });
  await seedStaffPetition(api, { termId: term });
});
afterAll(async () => api.close());
afterEach(async () => api.context.siteSettings.setMaintenance(false));

interface Variant {
  label: string;
  url: string;
  /** Whether the router decodes this spelling to the same route. */
  routed: boolean;
}

/** `/api/x/y?q` spelt the ways a hostile client might: encoded, doubled slashes, other letter case. */
function variantsOf(url: string): Variant[] {
  const rest = url.slice('/api/'.length);
  const [first = '', ...others] = rest.split('/');
  const tail = others.length > 0 ? `/${others.join('/')}` : '';
  return [
    { label: 'canonical', url, routed: true },
    { label: 'encoded a', url: `/%61pi/${rest}`, routed: true },
    { label: 'fully encoded prefix', url: `/%61%70%69/${rest}`, routed: true },
    { label: 'encoded capital A', url: `/%41pi/${rest}`, routed: false },
    { label: 'encoded inner segment', url: `/api/%${first.charCodeAt(0).toString(16)}${first.slice(1)}${tail}`, routed: true },
    { label: 'leading doubled slash', url: `//api/${rest}`, routed: false },
    { label: 'inner doubled slash', url: `/api//${rest}`, routed: false },
    { label: 'upper case', url: `/API/${rest}`, routed: false },
    { label: 'mixed case', url: `/Api/${rest}`, routed: false },
    { label: 'encoded slash', url: `/%2Fapi/${rest}`, routed: false },
  ];
}

function expectNoRoute(response: Awaited<ReturnType<TestApi['request']>>, variant: Variant): void {
  expect(response.statusCode, variant.label).toBe(404);
  expect(response.headers['content-type'], variant.label).toMatch(/^application\/problem\+json/);
}

describe('maintenance', () => {
  const gated = ['/api/petitions?pageSize=1', '/api/petitions.csv', '/api/stats', '/api/parliamentary-terms', '/api/petitions/1'];

  it.each(gated)('answers 503 to every spelling of %s that reaches a route', async (url) => {
    await api.context.siteSettings.setMaintenance(true);
    for (const variant of variantsOf(url)) {
      const response = await api.request({ method: 'GET', url: variant.url });
      if (!variant.routed) {
        expectNoRoute(response, variant);
        continue;
      }
      expect(response.statusCode, variant.label).toBe(503);
      expect(body(response).detail, variant.label).toBe(ERRORS.maintenance);
    }
  });

  it('keeps the site status and sign-in open under every spelling', async () => {
    await api.context.siteSettings.setMaintenance(true);
    for (const url of ['/api/site-status', '/api/auth/session']) {
      for (const variant of variantsOf(url).filter((v) => v.routed)) {
        expect((await api.request({ method: 'GET', url: variant.url })).statusCode, `${url} ${variant.label}`).toBe(200);
      }
    }
  });
});

describe('CSRF', () => {
  it('refuses a cross-site POST under every spelling that reaches the route', async () => {
    for (const variant of variantsOf('/api/petitions/check-expired')) {
      const response = await api.app.inject({
        method: 'POST',
        url: variant.url,
        headers: { origin: 'http://evil.example', cookie: citizen },
      });
      if (!variant.routed) {
        expectNoRoute(response, variant);
        continue;
      }
      expect(response.statusCode, variant.label).toBe(403);
      expect(body(response).detail, variant.label).toBe(ERRORS.csrf);
    }
  });

  it('refuses a POST without the header from our own origin too', async () => {
    for (const variant of variantsOf('/api/petitions/1/sign').filter((v) => v.routed)) {
      const response = await api.app.inject({ method: 'POST', url: variant.url, headers: { cookie: citizen } });
      expect(response.statusCode, variant.label).toBe(403);
    }
    expect(await api.context.db.selectFrom('signatures').selectAll().where('user_id', '=', '9002').execute()).toEqual([]);
  });
});

describe('the viewer', () => {
  it('is resolved from the session under every spelling that reaches the route', async () => {
    for (const variant of variantsOf('/api/auth/session')) {
      const response = await api.request({ method: 'GET', url: variant.url, cookie: citizen });
      if (!variant.routed) {
        expectNoRoute(response, variant);
        continue;
      }
      expect(response.statusCode, variant.label).toBe(200);
      expect(body<{ user: { id: string } | null }>(response).user?.id, variant.label).toBe('9002');
    }
  });
});

describe('cache-control', () => {
  it('is no-store on every spelling of an API reply', async () => {
    for (const url of ['/api/petitions?pageSize=1', '/api/parliamentary-terms', '/api/auth/session', '/api/petitions/1']) {
      for (const variant of variantsOf(url)) {
        const response = await api.request({ method: 'GET', url: variant.url });
        if (!variant.routed) {
          expectNoRoute(response, variant);
          continue;
        }
        expect(response.statusCode, `${url} ${variant.label}`).toBe(200);
        expect(response.headers['cache-control'], `${url} ${variant.label}`).toBe('no-store');
      }
    }
  });
});

describe('the scope of a route pattern', () => {
  it('is decided by the registered pattern alone', () => {
    expect(scopeOfPattern('/api/petitions/:id')).toEqual({ api: true, resolvesViewer: true, maintenanceGated: true, refreshesRanks: true });
    expect(scopeOfPattern('/api/auth/roblox/callback')).toEqual({ api: true, resolvesViewer: true, maintenanceGated: false, refreshesRanks: false });
    expect(scopeOfPattern('/api/docs/json')).toMatchObject({ api: true, maintenanceGated: false });
    expect(scopeOfPattern('/api/docsearch')).toMatchObject({ maintenanceGated: true });
    expect(scopeOfPattern('/avatar/:userId')).toEqual({ api: false, resolvesViewer: true, maintenanceGated: false, refreshesRanks: false });
    expect(scopeOfPattern('/*')).toEqual({ api: false, resolvesViewer: false, maintenanceGated: false, refreshesRanks: false });
  });
});
