/**
 * One text rule (src-shared/rules/text.ts) for everything people type: control characters other
 * than newline and tab, and bidirectional overrides, are refused with 400 and nothing stored; text is
 * stored in NFC with `\n` line breaks. The forms' shared validation gives the same message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION } from '../../src-shared/domain/messages.ts';
import { hasForbiddenCharacters, normaliseText, textError } from '../../src-shared/rules/text.ts';
import {
  banReasonError,
  debateSubmissionErrors,
  governmentResponseErrors,
  petitionDraftErrors,
  termFormErrors,
} from '../../src-shared/rules/validation.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { RESPONSE_BODY, seedStaffPetition, seedStaffTerm, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

const NUL = '\u0000';
const RLO = '\u202E';
const BAD = [NUL, RLO, '\u2066', '\u0085', '\u007F', '\u001B', '\u200F\u202D'];
const DESCRIPTION = 'Every town should keep its public library open at least five days a week.';

let api: TestApi;
let cookies: Record<Role, string>;
let petitionId: number;
let termId: number;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
  termId = await seedStaffTerm(api, { startDate: '2020-01-01', endDate: '2099-12-31' });
  petitionId = await seedStaffPetition(api, { termId });
});
afterAll(async () => api.close());

describe('the rule', () => {
  it('refuses C0/C1 controls and bidi overrides, keeps newline, tab and ordinary Unicode', () => {
    for (const bad of BAD) expect(hasForbiddenCharacters(`a${bad}b`), JSON.stringify(bad)).toBe(true);
    for (const good of ['a\tb', 'line\nline', 'line\r\nline', 'Café 🇬🇧 ﷽ עברית', '\u200F']) expect(hasForbiddenCharacters(good), JSON.stringify(good)).toBe(false);
  });

  it('normalises line breaks and to NFC', () => {
    expect(normaliseText('Cafe\u0301\r\nnext\rlast')).toBe('Café\nnext\nlast');
    expect(textError(`x${RLO}y`)).toBe(VALIDATION.textForbiddenCharacters);
    expect(textError('fine')).toBeNull();
  });

  it('is what the forms check (renderer and server share these functions)', () => {
    expect(petitionDraftErrors({ title: `Evil ${RLO}title`, description: DESCRIPTION, tags: ['Budget'] }).title).toBe(VALIDATION.textForbiddenCharacters);
    expect(petitionDraftErrors({ title: 'A fine title', description: `${DESCRIPTION}${NUL}`, tags: ['Budget'] }).description).toBe(VALIDATION.textForbiddenCharacters);
    expect(governmentResponseErrors({ ...RESPONSE_BODY, response_text: `We agree${NUL}` }).response_text).toBe(VALIDATION.textForbiddenCharacters);
    expect(debateSubmissionErrors({ status: 'scheduled', date: '2026-06-01', location: `Hall${RLO}` }).location).toBe(VALIDATION.textForbiddenCharacters);
    expect(debateSubmissionErrors({ status: 'not_debated', not_debated_reason: `No${NUL}` }).not_debated_reason).toBe(VALIDATION.textForbiddenCharacters);
    expect(termFormErrors({ name: `Term${NUL}`, startDate: '2027-01-01', endDate: '2027-12-31' })).toBe(VALIDATION.textForbiddenCharacters);
    expect(banReasonError(`Spam${RLO}`)).toBe(VALIDATION.textForbiddenCharacters);
    expect(banReasonError(' ')).toBe(VALIDATION.banReasonRequired);
  });
});

describe('the API', () => {
  const cases: { name: string; role: Role; method: 'POST' | 'PATCH' | 'PUT'; url: () => string; body: (bad: string) => object }[] = [
    { name: 'petition title', role: 'citizen', method: 'POST', url: () => '/api/petitions', body: (bad) => ({ title: `Fund ${bad}libraries`, description: DESCRIPTION, tags: ['Budget'] }) },
    { name: 'petition description', role: 'citizen', method: 'POST', url: () => '/api/petitions', body: (bad) => ({ title: 'Fund libraries', description: `${DESCRIPTION}${bad}`, tags: ['Budget'] }) },
    { name: 'petition category', role: 'citizen', method: 'POST', url: () => '/api/petitions', body: (bad) => ({ title: 'Fund libraries', description: DESCRIPTION, tags: ['Budget'], category: `Gen${bad}` }) },
    { name: 'new term name', role: 'admin', method: 'POST', url: () => '/api/parliamentary-terms', body: (bad) => ({ name: `Term${bad}88`, startDate: '2027-01-01', endDate: '2027-12-31' }) },
    { name: 'term rename', role: 'admin', method: 'PATCH', url: () => `/api/parliamentary-terms/${termId}`, body: (bad) => ({ name: `Term${bad}88` }) },
    { name: 'government response', role: 'rank6', method: 'POST', url: () => `/api/petitions/${petitionId}/government-response`, body: (bad) => ({ ...RESPONSE_BODY, response_text: `We will ${bad}act` }) },
    { name: 'debate location', role: 'rank7', method: 'POST', url: () => `/api/petitions/${petitionId}/debate-info`, body: (bad) => ({ status: 'scheduled', date: '2026-06-01', location: `West${bad}minster` }) },
    { name: 'debate Hansard link', role: 'rank7', method: 'POST', url: () => `/api/petitions/${petitionId}/debate-info`, body: (bad) => ({ status: 'debated', date: '2026-06-01', hansard_url: `https://hansard.example/${bad}x` }) },
    { name: 'debate reason', role: 'rank7', method: 'POST', url: () => `/api/petitions/${petitionId}/debate-info`, body: (bad) => ({ status: 'not_debated', not_debated_reason: `Not ${bad}now` }) },
    { name: 'ban reason', role: 'admin', method: 'PUT', url: () => '/api/bans/4242', body: (bad) => ({ reason: `Spam${bad}` }) },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('refuses a %s with a forbidden character, storing nothing', async (_name, c) => {
    const before = await writeSnapshot(api);
    for (const bad of BAD) {
      const response = await api.request({ method: c.method, url: c.url(), payload: c.body(bad), cookie: cookies[c.role] });
      expect(response.statusCode, `${c.name} ${JSON.stringify(bad)}: ${response.body}`).toBe(400);
      expect(response.json<{ detail: string }>().detail).toBe(VALIDATION.textForbiddenCharacters);
    }
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('stores text in NFC with \\n line breaks, tabs kept', async () => {
    const created = await api.request({
      method: 'POST',
      url: '/api/petitions',
      payload: { title: 'Cafe\u0301s for every town', description: `${DESCRIPTION}\r\nSecond\tline.`, tags: ['Budget'] },
      cookie: cookies.citizen,
    });
    expect(created.statusCode).toBe(201);
    const petition = created.json<{ id: number; title: string; description: string }>();
    expect(petition.title).toBe('Cafés for every town');
    expect(petition.description).toBe(`${DESCRIPTION}\nSecond\tline.`);
    const stored = await api.context.db.selectFrom('petitions').select(['title', 'description']).where('id', '=', petition.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ title: 'Cafés for every town', description: `${DESCRIPTION}\nSecond\tline.` });

    const ban = await api.request({ method: 'PUT', url: '/api/bans/4243', payload: { reason: '  Re\u0301peated spam  ' }, cookie: cookies.admin });
    expect(ban.statusCode).toBe(201);
    expect(ban.json<{ reason: string }>().reason).toBe('Répeated spam');
  });
});
