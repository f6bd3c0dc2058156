/**
 * docs/roles.md#permission-rules with real sign-ins: every persona signs in through the local provider (ranks
 * from its group API), then tries each guarded action over HTTP. Allowed means a 2xx; refused means 403 for a
 * signed-in user and 401 for a visitor. Paths and bodies are those of src-shared/api/client.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { seedPetition, seedTerm } from '../support/fixtures.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { appFetch, signInAs, type CookieJar } from './browser.ts';

type Action =
  | 'create petition'
  | 'sign'
  | 'add response'
  | 'add debate'
  | 'delete petition'
  | 'manage terms'
  | 'maintenance'
  | 'ban stats'
  | 'status override'
  | 'my petitions'
  | 'my notifications'
  | 'notification preferences'
  | 'mute a petition'
  | 'push devices'
  | 'notification audience';

const ACTIONS: readonly Action[] = [
  'create petition',
  'sign',
  'add response',
  'add debate',
  'delete petition',
  'manage terms',
  'maintenance',
  'ban stats',
  'status override',
  'my petitions',
  'my notifications',
  'notification preferences',
  'mute a petition',
  'push devices',
  'notification audience',
];

type Persona = 'Visitor' | 'Non-citizen' | 'Citizen' | 'Cabinet Minister' | 'Leader of the House of Commons' | 'Prime Minister' | 'System Administrator';

/** Every signed-in member has a notification centre of their own (docs/notifications.md). */
const MEMBER: readonly Action[] = ['my petitions', 'my notifications', 'notification preferences', 'mute a petition', 'push devices'];
const CITIZEN: readonly Action[] = [...MEMBER, 'create petition', 'sign'];
const MINISTER: readonly Action[] = [...CITIZEN, 'add response', 'notification audience'];
const SENIOR: readonly Action[] = [...MINISTER, 'add debate', 'delete petition'];

/** The rights of docs/roles.md#permission-rules. */
const ALLOWED: Record<Persona, readonly Action[]> = {
  Visitor: [],
  'Non-citizen': MEMBER,
  Citizen: CITIZEN,
  'Cabinet Minister': MINISTER,
  'Leader of the House of Commons': SENIOR,
  'Prime Minister': SENIOR,
  'System Administrator': ACTIONS,
};

/** The sentence for a refusal, where the shared messages define one (docs/roles.md#refusals). */
const REFUSAL_DETAIL: Partial<Record<Action, string>> = {
  'create petition': ERRORS.createPermission,
  sign: ERRORS.signUnauthorized,
  'add response': ERRORS.responseForbidden,
  'add debate': ERRORS.debateForbidden,
  'delete petition': ERRORS.deleteForbidden,
  'manage terms': ERRORS.adminOnly,
  'notification audience': ERRORS.staffOnly,
};

let stack: Stack;
let sharedPetitionId: number;
const jars = new Map<Persona, CookieJar | null>();

beforeAll(async () => {
  stack = await startStack({ serveWebApp: false });
  await seedTerm(stack.context);
  sharedPetitionId = (await seedPetition(stack.context, { title: 'Matrix petition', signatures: 25 })).id;
  jars.set('Visitor', null);
  for (const persona of Object.keys(ALLOWED) as Persona[]) {
    if (persona === 'Visitor') continue;
    jars.set(persona, (await signInAs(stack, persona)).jar);
  }
});

afterAll(async () => {
  await stack?.close();
});

async function attempt(persona: Persona, action: Action) {
  const jar = jars.get(persona) ?? null;
  const p = sharedPetitionId;
  switch (action) {
    case 'create petition':
      return appFetch(stack, jar, '/api/petitions', {
        method: 'POST',
        body: {
          title: `A petition by ${persona}`,
          description: 'This petition asks the government to run the permission matrix with real sign-ins.',
          tags: ['Democracy'],
        },
      });
    case 'sign':
      return appFetch(stack, jar, `/api/petitions/${p}/sign`, { method: 'POST', body: {} });
    case 'add response':
      return appFetch(stack, jar, `/api/petitions/${p}/government-response`, {
        method: 'POST',
        body: { response_text: `The government responds (${persona}).`, added_by_role: 'Home Secretary' },
      });
    case 'add debate':
      return appFetch(stack, jar, `/api/petitions/${p}/debate-info`, {
        method: 'POST',
        body: { status: 'scheduled', date: '2030-01-15', location: 'Westminster Hall' },
      });
    case 'delete petition': {
      // Each try needs a petition of its own, so an allowed delete does not starve the next row.
      const victim = await seedPetition(stack.context, { title: `To delete by ${persona}` });
      return appFetch(stack, jar, `/api/petitions/${victim.id}`, { method: 'DELETE' });
    }
    case 'manage terms':
      return appFetch(stack, jar, '/api/parliamentary-terms', {
        method: 'POST',
        body: { name: `Term by ${persona}`, startDate: '2031-01-01', endDate: '2031-12-31' },
      });
    case 'maintenance':
      return appFetch(stack, jar, '/api/site-status', { method: 'PUT', body: { maintenance: false } });
    case 'ban stats':
      return appFetch(stack, jar, '/api/ban-stats');
    case 'status override':
      return appFetch(stack, jar, `/api/petitions/${p}/status`, { method: 'PATCH', body: { status: 'awaiting_debate_in_parliament' } });
    case 'my petitions':
      return appFetch(stack, jar, '/api/me/petitions?list=signed');
    case 'my notifications':
      return appFetch(stack, jar, '/api/me/notifications');
    case 'notification preferences':
      return appFetch(stack, jar, '/api/me/notification-preferences', { method: 'PATCH', body: { topics: { milestones: false } } });
    case 'mute a petition':
      return appFetch(stack, jar, `/api/me/muted-petitions/${p}`, { method: 'PUT' });
    case 'push devices':
      return appFetch(stack, jar, '/api/me/push-subscriptions');
    case 'notification audience':
      return appFetch(stack, jar, `/api/petitions/${p}/notification-audience?topic=responses`);
  }
}

describe.each(Object.keys(ALLOWED) as Persona[])('%s', (persona) => {
  it.each(ACTIONS)(`%s`, async (action) => {
    const response = await attempt(persona, action);
    const what = `${persona} → ${action}: ${response.status} ${JSON.stringify(response.body)}`;
    // A route that is not built yet must not pass as "refused".
    expect(String(response.body?.detail ?? ''), what).not.toMatch(/^No route for/);
    if (ALLOWED[persona].includes(action)) {
      expect(response.status, what).toBeGreaterThanOrEqual(200);
      expect(response.status, what).toBeLessThan(300);
    } else if (persona === 'Visitor') {
      expect(response.status, what).toBe(401);
    } else {
      expect(response.status, what).toBe(403);
      const detail = REFUSAL_DETAIL[action];
      if (detail) expect(response.body.detail, what).toBe(detail);
    }
  });
});

describe('the sessions behind the matrix', () => {
  it('came from the provider with the ranks of each persona', async () => {
    const ranks: Record<string, number> = {};
    for (const [persona, jar] of jars) {
      if (!jar) continue;
      ranks[persona] = (await appFetch(stack, jar, '/api/auth/session')).body.user.rank;
    }
    expect(ranks).toEqual({
      'Non-citizen': 0,
      Citizen: 1,
      'Cabinet Minister': 6,
      'Leader of the House of Commons': 7,
      'Prime Minister': 8,
      'System Administrator': 9,
    });
  });
});
