/**
 * The notification centre's shared texts and rules as every client shows them, and the web app's
 * pieces that need no browser: the unread event guard, the live client passing it on, the button's
 * announcement, My petitions' address reading.
 */
import { describe, expect, it } from 'vitest';
import { parseUnreadEvent } from '../../src-shared/api/live-events.ts';
import { notificationsButtonName, notifySignersText } from '../../src-shared/domain/feed-messages.ts';
import type { PetitionEventDetail } from '../../src-shared/domain/feed-schemas.ts';
import { PetitionEventDetailSchema } from '../../src-shared/domain/feed-schemas.ts';
import { PETITION_EVENT_KINDS } from '../../src-shared/domain/feed-constants.ts';
import {
  debateEvent,
  eventAudience,
  feedEventExtra,
  feedEventSummary,
  kindsOfTopics,
  responseEvent,
  staffStatusEvent,
  thresholdsCrossed,
} from '../../src-shared/rules/feed.ts';
import { connectLiveEvents } from '../../src-renderer/services/liveEvents.ts';
import { unreadAnnouncement } from '../../src-renderer/components/NotificationsButton.tsx';
import { readList } from '../../src-renderer/pages/notifications/MyPetitionsPage.tsx';

const AT = '2026-12-03T10:15:00.000Z';

describe('shared texts', () => {
  it('names the button with the count and says how many signers a staff action notifies', () => {
    expect(notificationsButtonName(0)).toBe('Notifications, none unread');
    expect(notificationsButtonName(2)).toBe('Notifications, 2 unread');
    expect(notificationsButtonName(1234)).toBe('Notifications, 1,234 unread');
    expect(notifySignersText(1)).toBe('This will notify 1 signer');
    expect(notifySignersText(1234)).toBe('This will notify 1,234 signers');
    expect(notifySignersText(0)).toBe('This will notify 0 signers');
  });

  it('summarises every kind in one line', () => {
    const cases: [PetitionEventDetail, string][] = [
      [{ kind: 'response_added', excerpt: 'Yes.' }, 'Government responded on 3 December 2026'],
      [{ kind: 'response_edited', excerpt: 'Yes.' }, 'Government updated its response on 3 December 2026'],
      [{ kind: 'debate_scheduled', date: '2027-01-12', location: 'Westminster Hall' }, 'Debate scheduled for 12 January 2027 in Westminster Hall'],
      [{ kind: 'debate_held', date: '2027-01-12', hansardLink: 'https://hansard.example/1' }, 'Debated in Parliament on 12 January 2027'],
      [{ kind: 'debate_not_debated', reason: 'Debated last month.' }, 'Parliament decided not to debate this petition'],
      [{ kind: 'debate_cancelled', date: null, reason: null }, 'The scheduled debate was cancelled'],
      [{ kind: 'petition_closed', reason: 'three_weeks_insufficient_signatures' }, 'Closed after 3 weeks with fewer than 10 signatures on 3 December 2026'],
      [{ kind: 'petition_closed', reason: 'term_ended' }, 'Closed because the parliamentary term ended on 3 December 2026'],
      [{ kind: 'threshold_reached', threshold: 20 }, 'Reached 20 signatures: it will be considered for a debate in Parliament'],
      [{ kind: 'status_changed', from: 'closed', to: 'open' }, 'Status changed by staff from Closed to Open'],
      [{ kind: 'petition_rejected', reason: 'Duplicate' }, 'Rejected by the moderators'],
    ];
    for (const [detail, text] of cases) {
      expect(PetitionEventDetailSchema.parse(detail)).toEqual(detail);
      expect(feedEventSummary(detail, AT)).toBe(text);
    }
    expect(feedEventExtra({ kind: 'debate_held', date: null, hansardLink: 'https://hansard.example/1' })).toBe('https://hansard.example/1');
    expect(feedEventExtra({ kind: 'threshold_reached', threshold: 10 })).toBeNull();
  });

  it('decides kinds, audiences and thresholds once for server and clients', () => {
    expect(responseEvent(`  ${'x'.repeat(400)}  `, false)).toEqual({ kind: 'response_added', excerpt: `${'x'.repeat(279)}…` });
    expect(debateEvent({ status: 'cancelled', date: '2027-01-12', location: 'Westminster Hall', hansardLink: null, notDebatedReason: 'Recalled' })).toEqual({
      kind: 'debate_cancelled',
      date: '2027-01-12',
      reason: 'Recalled',
    });
    expect(staffStatusEvent('open', 'closed')).toEqual({ kind: 'petition_closed', reason: 'staff' });
    expect(staffStatusEvent('open', 'open')).toBeNull();
    expect(staffStatusEvent('closed', 'open')).toEqual({ kind: 'status_changed', from: 'closed', to: 'open' });
    expect(thresholdsCrossed(9, 10)).toEqual([10]);
    expect(thresholdsCrossed(10, 11)).toEqual([]);
    expect(thresholdsCrossed(19, 20)).toEqual([20]);
    expect(thresholdsCrossed(10, 9)).toEqual([]);
    expect(PETITION_EVENT_KINDS.filter((kind) => eventAudience(kind) === 'creator')).toEqual([
      'threshold_reached',
      'status_changed',
      'petition_hidden',
      'petition_rejected',
      'petition_restored',
    ]);
    expect(kindsOfTopics(['responses', 'closures'])).toEqual(['response_added', 'response_edited', 'petition_closed']);
    expect(PetitionEventDetailSchema.safeParse({ kind: 'threshold_reached', threshold: 15 }).success).toBe(false);
    expect(PetitionEventDetailSchema.safeParse({ kind: 'response_added', excerpt: 'x', extra: 1 }).success).toBe(false);
  });
});

describe('web app pieces', () => {
  it('guards unread events and passes them to the page', () => {
    expect(parseUnreadEvent('{"unread":3}')).toBe(3);
    for (const bad of ['{"unread":-1}', '{"unread":1.5}', '{"unread":"3"}', 'null', 'nonsense']) expect(parseUnreadEvent(bad)).toBeNull();
    const seen: number[] = [];
    const listeners = new Map<string, (event: { data: string }) => void>();
    const live = connectLiveEvents({
      baseUrl: '',
      onSite: () => undefined,
      onCount: () => undefined,
      onUnread: (n) => seen.push(n),
      onConnected: () => undefined,
      createEventSource: () => ({ addEventListener: (name: string, l: (e: { data: string }) => void) => listeners.set(name, l), close() {} }) as unknown as EventSource,
    });
    listeners.get('unread')?.({ data: '{"unread":2}' });
    listeners.get('unread')?.({ data: '{"unread":"x"}' });
    expect(seen).toEqual([2]);
    live.close();
  });

  it('announces growth only, and reads My petitions’ list and page from the address', () => {
    expect(unreadAnnouncement(null, 3)).toBeNull();
    expect(unreadAnnouncement(0, 1)).toBe('You have 1 unread notification');
    expect(unreadAnnouncement(1, 3)).toBe('You have 3 unread notifications');
    expect(unreadAnnouncement(3, 0)).toBeNull();
    expect(readList(new URLSearchParams('list=signed&page=3'))).toEqual({ list: 'signed', page: 3 });
    expect(readList(new URLSearchParams('list=everyone&page=-2'))).toEqual({ list: 'created', page: 1 });
    expect(readList(new URLSearchParams('page=1e3'))).toEqual({ list: 'created', page: 1 });
  });
});
