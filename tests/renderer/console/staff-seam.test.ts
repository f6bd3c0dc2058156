/** The seam that lets the web app's staff screens run in the console: reads via data:read, writes via the outbox. */
import { describe, expect, it } from 'vitest';
import { createApiClient, NetworkError } from '../../../src-shared/api/client.ts';
import { consoleReadFetch, consoleWrites } from '../../../src-renderer/console/staffSeam.ts';
import { createConsoleStores } from '../../../src-renderer/console/state/stores.ts';
import { directWrites, isQueued } from '../../../src-renderer/staff/lib/staffWrites.tsx';
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
    let called = false;
    const done = await writes.perform({ kind: 'site.maintenance', maintenance: true }, async () => {
      called = true;
    });
    expect(called).toBe(false);
    expect(isQueued(done) && done.summary).toBe('site.maintenance');
    expect(api.entries.map((e) => e.action)).toEqual([{ kind: 'site.maintenance', maintenance: true }]);
    await expect(writes.perform({ kind: 'ban.add', userId: 'not-digits', body: { reason: 'x' } }, async () => undefined)).rejects.toThrow();
  });

  it('on the web, write with the direct call', async () => {
    const done = await directWrites.perform({ kind: 'site.maintenance', maintenance: true }, async () => ({ maintenance: true }));
    expect(done).toEqual({ maintenance: true });
    expect(isQueued(done)).toBe(false);
  });
});
