/**
 * Who may call is settled before the body is looked at: on every operation the document marks as
 * needing a session, an anonymous caller gets 401 and a citizen without the right 403, whatever the
 * body says, and nothing is written. The list comes from the served OpenAPI document, so a new route
 * is covered as soon as it is registered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { seedStaffPetition, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

interface Operation {
  security?: Record<string, string[]>[];
  requestBody?: unknown;
}

let api: TestApi;
let cookies: Record<Role, string>;
let protectedOperations: { method: string; url: string; hasBody: boolean }[];

/** What a citizen may do (docs/roles.md#permission-rules); every other signed-in operation is for staff. */
const CITIZEN_OPERATIONS = new Set([
  'GET /api/petitions/daily-allowance',
  'POST /api/petitions',
  'POST /api/petitions/{id}/sign',
  'POST /api/petitions/{id}/unsign',
  'POST /api/petitions/{id}/reports',
  'GET /api/auth/roblox/user/{userId}',
  'POST /api/auth/roblox/logout/{userId}',
]);

/** Bodies that fail validation on every route: validated first, they would answer 400. */
const INVALID_BODIES: unknown[] = [{}, { bogus: true, response_text: '', status: 'nonsense', reason: '' }, []];

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
  await seedStaffPetition(api);
  const document = (await api.request({ method: 'GET', url: '/api/docs/json' })).json<{ paths: Record<string, Record<string, Operation>> }>();
  protectedOperations = Object.entries(document.paths).flatMap(([route, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation.security?.some((requirement) => 'session' in requirement))
      .map(([method, operation]) => ({ method: method.toUpperCase(), url: route, hasBody: operation.requestBody !== undefined })),
  );
});
afterAll(async () => api.close());

function concrete(route: string): string {
  return route.replace('{id}', '1').replace('{userId}', '9002');
}

describe('authentication and authorization come before the body', () => {
  it('covers every signed-in operation of the document', () => {
    expect(protectedOperations.length).toBeGreaterThan(20);
    expect(protectedOperations.map((o) => `${o.method} ${o.url}`)).toEqual(expect.arrayContaining([...CITIZEN_OPERATIONS]));
  });

  it('answers 401 to anonymous callers, whatever the body', async () => {
    const before = await writeSnapshot(api);
    for (const operation of protectedOperations) {
      for (const payload of operation.hasBody ? INVALID_BODIES : [undefined]) {
        const response = await api.request({ method: operation.method as 'GET', url: concrete(operation.url), payload: payload as object });
        expect(response.statusCode, `${operation.method} ${operation.url} ${JSON.stringify(payload)}: ${response.body}`).toBe(401);
      }
    }
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('answers 403 to a citizen on staff operations, whatever the body', async () => {
    const before = await writeSnapshot(api);
    // /api/me/… is every signed-in member's own (notification centre, web push devices: docs/notifications.md#the-api).
    const staffOperations = protectedOperations.filter((o) => !CITIZEN_OPERATIONS.has(`${o.method} ${o.url}`) && !o.url.startsWith('/api/me/'));
    expect(staffOperations.length).toBeGreaterThan(15);
    for (const operation of staffOperations) {
      for (const payload of operation.hasBody ? INVALID_BODIES : [undefined]) {
        const response = await api.request({ method: operation.method as 'GET', url: concrete(operation.url), payload: payload as object, cookie: cookies.citizen });
        expect(response.statusCode, `${operation.method} ${operation.url} ${JSON.stringify(payload)}: ${response.body}`).toBe(403);
      }
    }
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('keeps the specification texts: the government response example of the issue', async () => {
    const anonymous = await api.request({ method: 'POST', url: '/api/petitions/1/government-response', payload: {} });
    expect(anonymous.statusCode).toBe(401);
    const citizen = await api.request({ method: 'POST', url: '/api/petitions/1/government-response', payload: {}, cookie: cookies.citizen });
    expect(citizen.statusCode).toBe(403);
    expect(citizen.json<{ detail: string }>().detail).toBe(ERRORS.responseForbidden);
    const minister = await api.request({ method: 'POST', url: '/api/petitions/1/government-response', payload: {}, cookie: cookies.rank6 });
    expect(minister.statusCode).toBe(400);
  });

  it('answers a non-citizen 403 before validating a new petition, and an anonymous signer with the sign-in text', async () => {
    const create = await api.request({ method: 'POST', url: '/api/petitions', payload: { title: '' }, cookie: cookies.nonCitizen });
    expect(create.statusCode).toBe(403);
    expect(create.json<{ detail: string }>().detail).toBe(ERRORS.createPermission);
    const sign = await api.request({ method: 'POST', url: '/api/petitions/1/sign', payload: { bogus: 1 } });
    expect(sign.statusCode).toBe(401);
    expect(sign.json<{ detail: string }>().detail).toBe(ERRORS.signLoginRequired);
  });
});
