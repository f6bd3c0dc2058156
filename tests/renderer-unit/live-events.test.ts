/** The web app's live-stream client: backoff with jitter, reconnect on recheck, event guards; and the site store taking pushed states. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LIVE_RECONNECT_FIRST_MS, LIVE_RECONNECT_MAX_MS } from '../../src-shared/domain/constants.ts';
import { parseCountEvent, parseSiteEvent } from '../../src-shared/api/live-events.ts';
import { connectLiveEvents, reconnectDelay } from '../../src-renderer/services/liveEvents.ts';
import { createSiteStore } from '../../src-renderer/stores/site.ts';

class FakeEventSource {
  static made: FakeEventSource[] = [];
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  listeners = new Map<string, (event: { data: string }) => void>();
  readonly url: string;
  constructor(url: string) {
    this.url = url;
    FakeEventSource.made.push(this);
  }
  addEventListener(name: string, listener: (event: { data: string }) => void) {
    this.listeners.set(name, listener);
  }
  close() {
    this.closed = true;
  }
  emit(name: string, data: unknown) {
    this.listeners.get(name)?.({ data: JSON.stringify(data) });
  }
}

function connect(petitionId: number | null = null) {
  const seen = { site: [] as unknown[], count: [] as unknown[], connected: [] as boolean[] };
  const live = connectLiveEvents({
    baseUrl: '',
    petitionId,
    onSite: (s) => seen.site.push(s),
    onCount: (c) => seen.count.push(c),
    onConnected: (c) => seen.connected.push(c),
    createEventSource: (url) => new FakeEventSource(url) as unknown as EventSource,
    random: () => 1,
  });
  return { live, seen, last: () => FakeEventSource.made.at(-1)! };
}

beforeEach(() => {
  FakeEventSource.made = [];
  vi.useFakeTimers();
});
afterEach(() => vi.useRealTimers());

describe('live events client', () => {
  it('passes valid site and count events on and drops malformed ones', () => {
    const { seen, last, live } = connect(7);
    expect(last().url).toBe('/api/site-status/events?petition=7');
    last().onopen?.();
    last().emit('site', { maintenance: true, inSession: false });
    last().emit('site', { maintenance: 'yes' });
    last().emit('count', { id: 7, signatures: 12, status: 'awaiting_government_response' });
    last().emit('count', { id: 7, signatures: 12, status: 'made_up' });
    expect(seen.site).toEqual([{ maintenance: true, inSession: false }]);
    expect(seen.count).toEqual([{ id: 7, signatures: 12, status: 'awaiting_government_response' }]);
    expect(seen.connected).toEqual([true]);
    live.close();
  });

  it('reconnects with a doubling delay after errors, resets it once open, and at once on recheck', () => {
    const { last, live, seen } = connect();
    last().onerror?.();
    expect(last().closed).toBe(true);
    expect(FakeEventSource.made).toHaveLength(1);
    vi.advanceTimersByTime(LIVE_RECONNECT_FIRST_MS - 1);
    expect(FakeEventSource.made).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.made).toHaveLength(2);
    last().onerror?.();
    vi.advanceTimersByTime(2 * LIVE_RECONNECT_FIRST_MS - 1);
    expect(FakeEventSource.made).toHaveLength(2);
    // Focus comes back while the stream is down: no waiting for the backoff.
    live.recheck();
    expect(FakeEventSource.made).toHaveLength(3);
    last().onopen?.();
    live.recheck(); // up: nothing to do
    expect(FakeEventSource.made).toHaveLength(3);
    last().onerror?.();
    vi.advanceTimersByTime(LIVE_RECONNECT_FIRST_MS);
    expect(FakeEventSource.made).toHaveLength(4);
    expect(seen.connected).toEqual([true, false]);
    live.close();
  });

  it('switches petition by reconnecting, and close stops retries', () => {
    const { last, live } = connect();
    live.watchPetition(3);
    expect(FakeEventSource.made[0]!.closed).toBe(true);
    expect(last().url).toBe('/api/site-status/events?petition=3');
    live.watchPetition(3);
    expect(FakeEventSource.made).toHaveLength(2);
    last().onerror?.();
    live.close();
    vi.advanceTimersByTime(LIVE_RECONNECT_MAX_MS * 2);
    expect(FakeEventSource.made).toHaveLength(2);
  });

  it('holds no stream while paused (hidden tab) and reconnects on resume', () => {
    const { last, live } = connect();
    live.pause();
    expect(last().closed).toBe(true);
    live.recheck();
    live.watchPetition(4);
    expect(FakeEventSource.made).toHaveLength(1);
    live.resume();
    expect(FakeEventSource.made).toHaveLength(2);
    expect(last().url).toBe('/api/site-status/events?petition=4');
    expect(last().closed).toBe(false);
    live.close();
  });

  it('caps the delay and spreads it between half and all of it', () => {
    expect(reconnectDelay(0, () => 0)).toBe(LIVE_RECONNECT_FIRST_MS / 2);
    expect(reconnectDelay(20, () => 1)).toBe(LIVE_RECONNECT_MAX_MS);
    expect(reconnectDelay(20, () => 0)).toBe(LIVE_RECONNECT_MAX_MS / 2);
  });

  it('guards reject non-JSON and wrong shapes', () => {
    expect(parseSiteEvent('nope')).toBeNull();
    expect(parseSiteEvent('null')).toBeNull();
    expect(parseCountEvent('{"id":1.5,"signatures":1,"status":"open"}')).toBeNull();
  });
});

describe('site store and pushed states', () => {
  it('takes maintenance and in session from a push, and reloads the terms when the session changes', async () => {
    vi.useRealTimers();
    const listTerms = vi.fn(async () => []);
    const store = createSiteStore({ getSiteStatus: vi.fn(async () => ({ maintenance: false, inSession: false })), listTerms });
    await store.getState().refresh();
    expect(listTerms).toHaveBeenCalledTimes(1);
    store.getState().applyStatus({ maintenance: true, inSession: false });
    expect(store.getState()).toMatchObject({ maintenance: true, inSession: false });
    expect(listTerms).toHaveBeenCalledTimes(1);
    store.getState().applyStatus({ maintenance: false, inSession: true });
    expect(store.getState()).toMatchObject({ maintenance: false, inSession: true });
    expect(listTerms).toHaveBeenCalledTimes(2);
  });
});
