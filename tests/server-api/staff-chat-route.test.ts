import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { CHAT_MESSAGE_QUEUED } from '../../src-server/staff-chat/chat-message-routes.ts';
import { startTestApi, type TestApi } from '../support/api-harness.ts';
import { auditRows, body, chatMessageRows, signInEveryone, writeSnapshot, type Role } from './staff-fixtures.ts';

let api: TestApi;
let cookies: Record<Role, string>;

beforeAll(async () => {
  api = await startTestApi();
  cookies = await signInEveryone(api);
});
afterAll(async () => api.close());

const EMBED = {
  title: 'Government response added',
  description: 'The Government has responded to "Fund the public libraries".',
  color: 0x1d70b8,
  footer: { text: 'Petitions - UK Government and Parliament' },
  timestamp: '2026-06-01T12:00:00.000Z',
  url: 'https://petitions.example/petition/1',
};

function notify(payload: unknown, cookie: string | null = cookies.rank6) {
  return api.request({ method: 'POST', url: '/api/notifications/discord', payload: payload as object, ...(cookie === null ? {} : { cookie }) });
}

describe('POST /api/notifications/discord', () => {
  it.each(['rank6', 'rank7', 'rank8', 'admin'] as const)('queues the message for %s (202) and audits it', async (role) => {
    const response = await notify({ embeds: [EMBED] }, cookies[role]);
    expect(response.statusCode).toBe(202);
    expect(body(response)).toEqual({ message: CHAT_MESSAGE_QUEUED });
    const row = (await chatMessageRows(api)).at(-1);
    expect(row).toMatchObject({ event: 'staff.message', state: 'pending', attempts: 0 });
    expect(JSON.parse(row?.payload ?? '{}')).toEqual({ embeds: [EMBED], allowed_mentions: { parse: [] } });
    const audit = (await auditRows(api)).at(-1);
    expect(audit).toMatchObject({ action: 'notification.send', target_type: 'notification', target_id: String(row?.id) });
  });

  it('accepts up to ten embeds', async () => {
    const response = await notify({ embeds: Array.from({ length: 10 }, (_, i) => ({ title: `Embed ${i}` })) });
    expect(response.statusCode).toBe(202);
  });

  it.each(['citizen', 'nonCitizen', 'bannedCitizen'] as const)('is refused to %s (403)', async (role) => {
    const before = await writeSnapshot(api);
    const response = await notify({ embeds: [EMBED] }, cookies[role]);
    expect(response.statusCode).toBe(403);
    expect(body(response).detail).toBe(ERRORS.responseForbidden);
    expect(await writeSnapshot(api)).toEqual(before);
  });

  it('needs a session (401)', async () => {
    expect((await notify({ embeds: [EMBED] }, null)).statusCode).toBe(401);
  });

  it.each([
    ['no embeds', { embeds: [] }, 'Send at least one embed'],
    ['eleven embeds', { embeds: Array.from({ length: 11 }, () => ({ title: 'x' })) }, 'Send at most 10 embeds'],
    ['a 257-character title', { embeds: [{ title: 't'.repeat(257) }] }, 'An embed title is at most 256 characters'],
    ['a 4097-character description', { embeds: [{ description: 'd'.repeat(4097) }] }, 'An embed description is at most 4096 characters'],
    ['more than 6000 characters in all', { embeds: [{ description: 'd'.repeat(4000) }, { description: 'd'.repeat(2001) }] }, 'The embeds of one message hold at most 6000 characters in all'],
    ['an empty embed', { embeds: [{ color: 1 }] }, 'An embed needs a title or a description'],
    ['an http link', { embeds: [{ title: 'x', url: 'http://example.com' }] }, 'An embed link must be an https:// address'],
    ['a colour out of range', { embeds: [{ title: 'x', color: 0x1000000 }] }, 'color'],
    ['a bad timestamp', { embeds: [{ title: 'x', timestamp: 'yesterday' }] }, 'timestamp'],
    ['an unknown embed field', { embeds: [{ title: 'x', image: { url: 'https://x' } }] }, 'image'],
    ['content instead of embeds', { content: '@everyone hello' }, 'embeds'],
    ['content beside embeds', { content: '@everyone hello', embeds: [{ title: 'x' }] }, 'content'],
  ])('refuses %s with 400 and queues nothing', async (_name, payload, detailPart) => {
    const before = await writeSnapshot(api);
    const response = await notify(payload);
    expect(response.statusCode).toBe(400);
    expect(String(body(response).detail)).toContain(detailPart);
    expect(await writeSnapshot(api)).toEqual(before);
  });
});
