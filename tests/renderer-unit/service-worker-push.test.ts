/**
 * The service worker's web push handling without a browser (src-renderer/service-worker/push-handlers.ts):
 * the notification a payload becomes, the fallback for one it cannot read, and where a click goes.
 * tests/web-ui/web-push.test.ts runs the same worker in Chromium.
 */
import { describe, expect, it } from 'vitest';
import { clickTarget, FALLBACK_NOTIFICATION, notificationFor, openTarget } from '../../src-renderer/service-worker/push-handlers.ts';
import { pushPayload } from '../../src-shared/rules/push.ts';

const ORIGIN = 'https://petitions.example';
const payload = pushPayload({
  eventId: 41,
  kind: 'response_added',
  petitionId: 12,
  petitionTitle: 'Light every village green',
  summary: 'Government responded on 3 December 2026',
  at: '2026-12-03T10:00:00.000Z',
});

describe('a push message', () => {
  it('becomes one notification per event: the petition as title, what happened as body, its page as target', () => {
    expect(notificationFor(JSON.stringify(payload))).toEqual({
      title: 'Petition 12: Light every village green',
      options: { body: 'Government responded on 3 December 2026', tag: 'petition-event-41', data: { url: '/petition/12' } },
    });
  });

  it('that cannot be read still shows a notification (the Push API requires one), pointing at the notifications page', () => {
    for (const text of [null, '', 'not json', JSON.stringify({ ...payload, v: 2 }), JSON.stringify({ ...payload, url: 'https://evil.example/' })]) {
      const shown = notificationFor(text);
      expect(shown.title).toBe(FALLBACK_NOTIFICATION.title);
      expect(shown.options.data.url).toBe('/notifications');
    }
  });
});

describe('a click on the notification', () => {
  it('opens a page of this site only', () => {
    expect(clickTarget({ url: '/petition/12' }, ORIGIN)).toBe(`${ORIGIN}/petition/12`);
    for (const data of [{ url: 'https://evil.example/x' }, { url: '//evil.example/x' }, { url: 42 }, null, 'x']) {
      expect(clickTarget(data, ORIGIN)).toBe(`${ORIGIN}/notifications`);
    }
  });

  it('focuses a tab already showing the petition, or opens one', async () => {
    const focused: string[] = [];
    const opened: string[] = [];
    const tab = (url: string) => ({ url, focus: async () => focused.push(url) });
    const clients = (urls: string[]) => ({
      matchAll: async () => urls.map(tab),
      openWindow: async (url: string) => opened.push(url),
    });
    await openTarget(clients([`${ORIGIN}/`, `${ORIGIN}/petition/12`]), `${ORIGIN}/petition/12`);
    await openTarget(clients([`${ORIGIN}/`]), `${ORIGIN}/petition/13`);
    expect(focused).toEqual([`${ORIGIN}/petition/12`]);
    expect(opened).toEqual([`${ORIGIN}/petition/13`]);
  });
});
