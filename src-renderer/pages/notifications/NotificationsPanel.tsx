/**
 * The header's notifications panel (a lazy chunk): the latest few notifications, "Mark all as
 * read", and links to the full page and its settings. It follows the unread count: a new event while
 * it is open appears in it. Escape or a click outside closes it (the button then has focus again).
 */
import { useEffect, useRef, useState } from 'react';
import { Link } from '../../components/Link.tsx';
import type { FeedPage } from '../../../src-shared/domain/feed-schemas.ts';
import { Loading } from '../../components/Loading.tsx';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiListNotifications, apiMarkAllNotificationsRead, apiMarkNotificationRead } from '../../../src-shared/api/member-calls.ts';
import { useLiveStream } from '../../stores/index.ts';
import { FeedItemView } from './FeedItemView.tsx';
import { FEED_TEXTS, unreadLine } from './texts.ts';
import './notifications.css';

const PANEL_ITEMS = 6;

export function NotificationsPanel({ id, onClose }: { id: string; onClose: (returnFocus: boolean) => void }) {
  const unread = useLiveStream((s) => s.unread);
  const [page, setPage] = useState<FeedPage | null>(null);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const ref = useRef<HTMLElement>(null);

  useEffect(() => {
    let current = true;
    apiListNotifications(apiCaller, { limit: PANEL_ITEMS }).then(
      (next) => {
        if (!current) return;
        setPage(next);
        setFailed(false);
        useLiveStream.getState().setUnread(next.unread);
      },
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [unread]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose(true);
    };
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      // The button toggles the panel itself; anywhere else outside closes it.
      if (ref.current?.contains(target) || (target instanceof Element && target.closest('.notifications__button'))) return;
      onClose(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [onClose]);

  const markAll = async () => {
    setBusy(true);
    try {
      const newest = page?.items[0]?.id;
      const { unread: left } = await apiMarkAllNotificationsRead(apiCaller, newest === undefined ? {} : { upTo: newest });
      useLiveStream.getState().setUnread(left);
      setPage((p) => (p ? { ...p, unread: left, items: p.items.map((item) => ({ ...item, read: true })) } : p));
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const open = (eventId: number, read: boolean) => {
    onClose(false);
    if (!read) {
      apiMarkNotificationRead(apiCaller, eventId).then(
        ({ unread: left }) => useLiveStream.getState().setUnread(left),
        () => undefined,
      );
    }
  };

  return (
    <section id={id} ref={ref} className="notifications__panel" aria-labelledby={`${id}-title`}>
      <div className="notifications__panel-head">
        <h2 className="heading-s" id={`${id}-title`}>
          {FEED_TEXTS.panelTitle}
        </h2>
        {page ? <p className="notifications__count">{unreadLine(page.unread)}</p> : null}
      </div>
      {!page && !failed ? <Loading text="Loading notifications..." /> : null}
      {failed ? (
        <p className="error-message" role="alert">
          {FEED_TEXTS.loadFailed}
        </p>
      ) : null}
      {page && page.items.length === 0 ? <p className="empty">{FEED_TEXTS.empty}</p> : null}
      {page && page.items.length > 0 ? (
        <ol className="feed-list feed-list--compact">
          {page.items.map((item) => (
            <li key={item.id}>
              <FeedItemView item={item} compact onOpen={() => open(item.id, item.read)} />
            </li>
          ))}
        </ol>
      ) : null}
      <div className="notifications__panel-actions">
        {page && page.unread > 0 ? (
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => void markAll()}>
            {FEED_TEXTS.markAllRead}
          </button>
        ) : null}
        <Link className="link-strong" to="/notifications" onClick={() => onClose(false)}>
          {FEED_TEXTS.seeAll}
        </Link>
        <Link to="/notifications#preferences" onClick={() => onClose(false)}>
          {FEED_TEXTS.settings}
        </Link>
      </div>
    </section>
  );
}
