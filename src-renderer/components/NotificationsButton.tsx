/**
 * The header's notifications button (docs/notifications.md#the-notification-centre): its accessible
 * name carries the unread count ("Notifications, 2 unread"), a polite live region says when it
 * grows, and it opens the panel (a lazy chunk). The live stream keeps the count current; while the
 * stream is down the count is read on each page instead.
 */
import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { notificationsButtonName } from '../../src-shared/domain/feed-messages.ts';
import { loadNotificationsPanel } from '../routeModules.ts';
import { apiCaller } from '../services/apiCaller.ts';
import { apiGetUnreadNotificationCount } from '../../src-shared/api/member-calls.ts';
import { useLiveStream } from '../stores/index.ts';
import { Loading } from './Loading.tsx';

const NotificationsPanel = lazy(() => loadNotificationsPanel().then((m) => ({ default: m.NotificationsPanel })));
const PANEL_ID = 'notifications-panel';

function Bell() {
  return (
    <svg className="notifications__bell" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
      <path
        d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z"
        fill="currentColor"
      />
    </svg>
  );
}

/** What the live region says when the count grows (nothing when it falls or first arrives). */
export function unreadAnnouncement(previous: number | null, next: number | null): string | null {
  if (previous === null || next === null || next <= previous) return null;
  return next === 1 ? 'You have 1 unread notification' : `You have ${next.toLocaleString('en-GB')} unread notifications`;
}

export function NotificationsButton({ userId }: { userId: string }) {
  const unread = useLiveStream((s) => s.unread);
  const connected = useLiveStream((s) => s.connected);
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const previous = useRef<number | null>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const said = unreadAnnouncement(previous.current, unread);
    if (said) setAnnouncement(said);
    previous.current = unread;
  }, [unread]);

  // Without the stream (a proxy cutting it, or not connected yet) each page reads the count itself.
  useEffect(() => {
    if (connected) return;
    let current = true;
    apiGetUnreadNotificationCount(apiCaller).then(
      ({ unread: count }) => current && useLiveStream.getState().setUnread(count),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [userId, connected, pathname]);

  // A new page closes the panel.
  useEffect(() => setOpen(false), [pathname]);

  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }, []);

  const count = unread ?? 0;
  return (
    <div className="notifications">
      <button
        ref={button}
        type="button"
        className="button button--header notifications__button"
        aria-label={notificationsButtonName(count)}
        aria-expanded={open}
        aria-controls={open ? PANEL_ID : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <Bell />
        {count > 0 ? (
          <span className="notifications__badge" aria-hidden="true">
            {count > 99 ? '99+' : count}
          </span>
        ) : null}
      </button>
      <span className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </span>
      {open ? (
        <Suspense
          fallback={
            <div className="notifications__panel">
              <Loading text="Loading notifications..." />
            </div>
          }
        >
          <NotificationsPanel id={PANEL_ID} onClose={close} />
        </Suspense>
      ) : null}
    </div>
  );
}
