/**
 * The seam that lets the web app's staff screens run in the console: reads via data:read, writes via
 * the outbox. The web's own path (the action performed at once) is tested against the real server in
 * tests/server-api/staff-action-calls.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createApiClient, NetworkError } from '../../../src-shared/api/client.ts';
import { consoleReadFetch, consoleWrites } from '../../../src-renderer/console/staffSeam.ts';
import { createConsoleStores } from '../../../src-renderer/console/state/stores.ts';
import { isQueued } from '../../../src-renderer/staff/lib/staffWrites.tsx';
import { ConsoleDouble, makePetition } from './console-double.ts';

describe('staff screens in the console', () => {
  it('read through data:read with the typed API client', async () => {
    const api = new ConsoleDouble({ petitions: [makePetition({ id: 4, title: 'Read through the console' })] });
    const client = createApiClient({ fetch: consoleReadFetch(api) });
    expect((await client.getPetition(4)).title).toBe('Read through the console');
    expect(api.calls.at(-1)).toEqual({ channel: 'data:read', request: { path: '/api/petitions/4' } });
    // A read the console cannot answer becomes the client's ordinary error, with the console's reason.
    await expect(client.getPetition(99)).rejects.toThrow('Petition not found');
    // Direct writes never leave the page.
    await expect(client.setMaintenance(true)).rejects.toBeInstanceOf(NetworkError);
  });

  it('write by queueing the staff action, and say it was queued', async () => {
    const api = new ConsoleDouble();
    const writes = consoleWrites(createConsoleStores(api));
    const done = await writes.perform({ kind: 'site.maintenance', maintenance: true });
    expect(isQueued(done) && done.summary).toBe('site.maintenance');
    expect(api.entries.map((e) => e.action)).toEqual([{ kind: 'site.maintenance', maintenance: true }]);
    // Queued only: the outbox is all that was asked (the web's direct call is not made).
    expect(api.calls.map((c) => c.channel)).toContain('outbox:enqueue');
    expect(api.calls.filter((c) => !c.channel.startsWith('outbox:'))).toEqual([]);
    await expect(writes.perform({ kind: 'ban.add', userId: 'not-digits', body: { reason: 'x' } })).rejects.toThrow();
  });
});
