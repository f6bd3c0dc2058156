import { afterEach, describe, expect, it } from 'vitest';
import {
  DEV_ADMIN_USER_ID,
  DEV_CITIZEN_GROUP_ID,
  DEV_GOVERNMENT_GROUP_ID,
  DEV_PERSONAS,
  startDevProvider,
  type DevProvider,
} from '../../src-server/dev/provider/index.ts';
import { TEST_CLIENTS, discoverClient, getJson, membershipsUrl, tokensFor } from './helpers.ts';

const started: DevProvider[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.close()));
});

describe('exports', () => {
  it('defines the six personas with fixed ids and ranks', () => {
    expect(DEV_PERSONAS.map((p) => [p.label, p.id, p.citizenRank, p.governmentRank])).toEqual([
      ['Citizen', '2001', 1, 0],
      ['Non-citizen', '2002', 0, 0],
      ['Cabinet Minister', '2006', 1, 6],
      ['Leader of the House of Commons', '2007', 1, 7],
      ['Prime Minister', '2008', 1, 8],
      ['System Administrator', '2000', 1, 0],
    ]);
    expect(DEV_ADMIN_USER_ID).toBe('2000');
    expect([DEV_CITIZEN_GROUP_ID, DEV_GOVERNMENT_GROUP_ID]).toEqual(['5550001', '5550002']);
    const nullPictures = DEV_PERSONAS.filter((p) => p.picture === null).length;
    expect(nullPictures).toBeGreaterThanOrEqual(1);
    expect(nullPictures).toBeLessThanOrEqual(2);
    // Never the internet: pictures are served by the provider itself.
    expect(DEV_PERSONAS.every((p) => p.picture === null || p.picture.startsWith('/'))).toBe(true);
    expect(new Set(DEV_PERSONAS.map((p) => p.username)).size).toBe(6);
  });
});

describe('startDevProvider', () => {
  it('refuses to start when NODE_ENV is production', async () => {
    const previous = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await expect(startDevProvider({ clients: TEST_CLIENTS })).rejects.toThrow(/production/);
    } finally {
      process.env.NODE_ENV = previous;
    }
  });

  it('listens on the requested port, logs its issuer, and frees the port on close', async () => {
    const messages: string[] = [];
    const probe = await startDevProvider({ clients: TEST_CLIENTS });
    const port = Number(new URL(probe.apiBase).port);
    await probe.close();

    const dev = await startDevProvider({ clients: TEST_CLIENTS, port, logger: { info: (m) => messages.push(m) } });
    expect(dev.issuer).toBe(`http://127.0.0.1:${port}/oauth/`);
    expect(dev.apiBase).toBe(`http://127.0.0.1:${port}`);
    expect(messages.some((m) => m.includes(dev.issuer))).toBe(true);
    expect((await fetch(new URL('.well-known/openid-configuration', dev.issuer))).status).toBe(200);

    await dev.close();
    await expect(fetch(new URL('.well-known/openid-configuration', dev.issuer))).rejects.toThrow();
  });

  it('uses the configured group ids instead of the defaults', async () => {
    const dev = await startDevProvider({ clients: TEST_CLIENTS, citizenGroupId: '777', governmentGroupId: '888' });
    started.push(dev);
    const config = await discoverClient(dev);
    const { access_token: at } = await tokensFor(config, 'Prime Minister');

    const gov = await getJson(membershipsUrl(dev, '888', '2008'), at);
    expect(gov.status).toBe(200);
    expect((gov.body.groupMemberships as { role: string }[])[0]?.role).toMatch(/^groups\/888\/roles\/\d+$/);
    expect((await getJson(membershipsUrl(dev, '777', '2008'), at)).body.groupMemberships).toHaveLength(1);
    expect((await getJson(membershipsUrl(dev, DEV_GOVERNMENT_GROUP_ID, '2008'), at)).status).toBe(404);
  });

  it('runs two providers side by side without sharing state', async () => {
    const a = await startDevProvider({ clients: TEST_CLIENTS });
    const b = await startDevProvider({ clients: TEST_CLIENTS });
    started.push(a, b);
    expect(a.issuer).not.toBe(b.issuer);
    const tokens = await tokensFor(await discoverClient(a), 'Citizen');
    expect((await getJson(membershipsUrl(a, DEV_CITIZEN_GROUP_ID, '2001'), tokens.access_token)).status).toBe(200);
    expect((await getJson(membershipsUrl(b, DEV_CITIZEN_GROUP_ID, '2001'), tokens.access_token)).status).toBe(401);
  });
});
