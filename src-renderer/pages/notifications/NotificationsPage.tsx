/**
 * /notifications: every notification of the signed-in member, newest first (docs/notifications.md),
 * with "Mark all as read", each one's "Mark as read" and "Stop updates for this petition", older ones
 * on request, the member's settings (topics, web push) and the petitions they stopped updates for.
 */
import { useEffect, useState } from 'react';
import type { FeedItem, FeedPage } from '../../../src-shared/domain/feed-schemas.ts';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { Loading } from '../../components/Loading.tsx';
import { Notice } from '../../components/Notice.tsx';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiListNotifications, apiMarkAllNotificationsRead, apiMarkNotificationRead } from '../../../src-shared/api/member-calls.ts';
import { useLiveStream, useSession } from '../../stores/index.ts';
import { FeedItemView } from './FeedItemView.tsx';
import { MutedPetitionsSection } from './MutedPetitionsSection.tsx';
import { PreferencesForm } from './PreferencesForm.tsx';
import { SignInPrompt } from './SignInPrompt.tsx';
import { FEED_TEXTS, unreadLine } from './texts.ts';
import { useMuteToggle } from './useMuteToggle.ts';
import './notifications.css';

const PAGE_SIZE = 20;

function NotificationsList() {
  const unread = useLiveStream((s) => s.unread);
  const [items, setItems] = useState<FeedItem[] | null>(null);
  const [nextBefore, setNextBefore] = useState<number | null>(null);
  const [count, setCount] = useState(0);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [mutedVersion, setMutedVersion] = useState(0);

  const apply = (page: FeedPage, append: boolean) => {
    setItems((current) => (append && current ? [...current, ...page.items] : page.items));
    setNextBefore(page.nextBefore);
    setCount(page.unread);
    useLiveStream.getState().setUnread(page.unread);
  };

  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    let current = true;
    apiListNotifications(apiCaller, { limit: PAGE_SIZE }).then(
      (page) => {
        if (!current) return;
        setFailed(false);
        apply(page, false);
      },
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [reloads, mutedVersion]);

  // The live count moved past what this list knows (a new event, or a read in another tab): read the first page again.
  useEffect(() => {
    if (items !== null && unread !== null && unread !== count) setReloads((n) => n + 1);
  }, [unread]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
      setFailed(false);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };

  const markAll = () =>
    run(async () => {
      const newest = items?.[0]?.id;
      const { unread: left } = await apiMarkAllNotificationsRead(apiCaller, newest === undefined ? {} : { upTo: newest });
      setItems((current) => current?.map((item) => (newest !== undefined && item.id <= newest ? { ...item, read: true } : item)) ?? null);
      setCount(left);
      useLiveStream.getState().setUnread(left);
    });

  const markOne = (id: number) =>
    run(async () => {
      const { unread: left } = await apiMarkNotificationRead(apiCaller, id);
      setItems((current) => current?.map((item) => (item.id === id ? { ...item, read: true } : item)) ?? null);
      setCount(left);
      useLiveStream.getState().setUnread(left);
    });

  const older = () =>
    run(async () => {
      if (nextBefore !== null) apply(await apiListNotifications(apiCaller, { before: nextBefore, limit: PAGE_SIZE }), true);
    });

  const mute = useMuteToggle(() => setMutedVersion((v) => v + 1));

  return (
    <>
      <div className="feed-toolbar">
        <p className="count-line" role="status">
          {items ? unreadLine(count) : ''}
        </p>
        {count > 0 ? (
          <button type="button" className="button button--secondary" disabled={busy} onClick={() => void markAll()}>
            {FEED_TEXTS.markAllRead}
          </button>
        ) : null}
      </div>
      {failed || mute.failed !== null ? (
        <Notice tone="error" live="alert">
          <p>{items ? FEED_TEXTS.actionFailed : FEED_TEXTS.loadFailed}</p>
        </Notice>
      ) : null}
      {!items && !failed ? <Loading text="Loading notifications..." /> : null}
      {items && items.length === 0 ? <p className="empty">{FEED_TEXTS.empty}</p> : null}
      {items && items.length > 0 ? (
        <ol className="feed-list">
          {items.map((item) => (
            <li key={item.id}>
              <FeedItemView
                item={item}
                actions={
                  <>
                    {item.read ? null : (
                      <button type="button" className="button button--secondary" disabled={busy} onClick={() => void markOne(item.id)}>
                        {FEED_TEXTS.markRead}
                        <span className="visually-hidden">: {item.summary}</span>
                      </button>
                    )}
                    <button
                      type="button"
                      className="button button--secondary"
                      disabled={mute.busy === item.petition.id}
                      onClick={() => void mute.toggle(item.petition.id, true)}
                    >
                      {FEED_TEXTS.stopUpdates}
                      <span className="visually-hidden">: {item.petition.title}</span>
                    </button>
                  </>
                }
              />
            </li>
          ))}
        </ol>
      ) : null}
      {nextBefore !== null ? (
        <button type="button" className="button button--secondary" disabled={busy} onClick={() => void older()}>
          {FEED_TEXTS.showOlder}
        </button>
      ) : null}
      <MutedPetitionsSection version={mutedVersion} onChanged={() => setMutedVersion((v) => v + 1)} />
    </>
  );
}

export function NotificationsPage() {
  useDocumentTitle(FEED_TEXTS.pageTitle);
  const user = useSession((s) => s.user);
  const loading = useSession((s) => s.status === 'loading');
  return (
    <>
      <h1 className="heading-xl">{FEED_TEXTS.pageTitle}</h1>
      {loading ? <Loading text="Checking your account..." /> : null}
      {!loading && !user ? <SignInPrompt title={FEED_TEXTS.signInTitle} text={FEED_TEXTS.signInText} /> : null}
      {user ? (
        <>
          <NotificationsList />
          <PreferencesForm />
        </>
      ) : null}
    </>
  );
}
