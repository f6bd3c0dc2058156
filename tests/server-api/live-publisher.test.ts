/** The live publisher on its own: one read per tick for everyone, counts held back during maintenance, timers only while someone listens. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PetitionCount, SiteStatus } from '../../src-shared/domain/schemas.ts';
import { HEARTBEAT_FRAME, createLivePublisher, type LiveSubscriber } from '../../src-server/site/live-publisher.ts';

function subscriber(petitionId: number | null, exempt = false) {
  const chunks: string[] = [];
  const sub: LiveSubscriber & { chunks: string[]; ended: boolean } = {
    petitionId,
    exempt,
    chunks,
    ended: false,
    write: (chunk) => chunks.push(chunk),
    end: () => {
      sub.ended = true;
    },
  };
  return sub;
}

const events = (sub: { chunks: string[] }, name: string) =>
  sub.chunks.filter((c) => c.startsWith(`event: ${name}\n`)).map((c) => JSON.parse(c.split('data: ')[1]!) as unknown);

let site: SiteStatus;
let counts: Map<number, PetitionCount>;
const readSiteState = vi.fn(async () => ({ ...site }));
const readCounts = vi.fn(async (ids: readonly number[]) => ids.flatMap((id) => (counts.has(id) ? [counts.get(id)!] : [])));

beforeEach(() => {
  vi.useFakeTimers();
  site = { maintenance: false, inSession: true };
  counts = new Map([[1, { id: 1, signatures: 5, status: 'open' }]]);
  readSiteState.mockClear();
  readCounts.mockClear();
});
afterEach(() => vi.useRealTimers());

async function tick(ms = 1_000) {
  await vi.advanceTimersByTimeAsync(ms);
}

describe('live publisher', () => {
  it('reads once per tick whatever the number of subscribers, and sends only changes', async () => {
    const publisher = createLivePublisher({ readSiteState, readCounts, tickMs: 1_000, heartbeatMs: 15_000 });
    const subs = Array.from({ length: 50 }, (_, i) => subscriber(i % 2 === 0 ? 1 : null));
    for (const sub of subs) publisher.subscribe(sub);
    await tick(3_000);
    expect(readSiteState.mock.calls.length).toBeLessThanOrEqual(5);
    expect(readCounts.mock.calls.length).toBeLessThanOrEqual(5);
    expect(events(subs[0]!, 'site')).toEqual([{ maintenance: false, inSession: true }]);
    expect(events(subs[0]!, 'count')).toEqual([{ id: 1, signatures: 5, status: 'open' }]);
    expect(events(subs[1]!, 'count')).toEqual([]);

    site = { maintenance: false, inSession: false };
    counts.set(1, { id: 1, signatures: 6, status: 'open' });
    await tick();
    expect(events(subs[0]!, 'site')).toHaveLength(2);
    expect(events(subs[0]!, 'count')).toHaveLength(2);
    expect(events(subs[1]!, 'site')).toEqual([
      { maintenance: false, inSession: true },
      { maintenance: false, inSession: false },
    ]);
    publisher.close();
  });

  it('holds counts back from non-exempt subscribers during maintenance and catches them up after', async () => {
    const publisher = createLivePublisher({ readSiteState, readCounts, tickMs: 1_000 });
    const citizen = subscriber(1);
    const admin = subscriber(1, true);
    publisher.subscribe(citizen);
    publisher.subscribe(admin);
    await tick();
    site = { maintenance: true, inSession: true };
    await tick();
    counts.set(1, { id: 1, signatures: 9, status: 'open' });
    await tick();
    expect(events(admin, 'count').at(-1)).toEqual({ id: 1, signatures: 9, status: 'open' });
    expect(events(citizen, 'count').at(-1)).toEqual({ id: 1, signatures: 5, status: 'open' });
    site = { maintenance: false, inSession: true };
    await tick();
    expect(events(citizen, 'count').at(-1)).toEqual({ id: 1, signatures: 9, status: 'open' });
    expect(events(citizen, 'count')).toHaveLength(2);
    publisher.close();
  });

  it('sends heartbeats, stops its timers with the last subscriber, and ends streams on close', async () => {
    const publisher = createLivePublisher({ readSiteState, readCounts, tickMs: 1_000, heartbeatMs: 2_000 });
    const first = subscriber(null);
    const unsubscribe = publisher.subscribe(first);
    await tick(2_000);
    expect(first.chunks).toContain(HEARTBEAT_FRAME);
    unsubscribe();
    const calls = readSiteState.mock.calls.length;
    await tick(5_000);
    expect(readSiteState.mock.calls.length).toBe(calls);

    const second = subscriber(null);
    publisher.subscribe(second);
    await tick();
    expect(events(second, 'site')).toHaveLength(1);
    publisher.close();
    expect(second.ended).toBe(true);
    expect(publisher.stats().subscribers).toBe(0);
  });

  it('a failed read is reported and the next tick tries again', async () => {
    const publisher = createLivePublisher({ readSiteState, readCounts, tickMs: 1_000 });
    const reported: unknown[] = [];
    publisher.setErrorReporter((error) => reported.push(error));
    readSiteState.mockRejectedValueOnce(new Error('database busy'));
    const sub = subscriber(null);
    publisher.subscribe(sub);
    await tick();
    expect(reported).toHaveLength(1);
    await tick();
    expect(events(sub, 'site')).toHaveLength(1);
    publisher.close();
  });
});
