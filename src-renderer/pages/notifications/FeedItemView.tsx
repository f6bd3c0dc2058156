/**
 * One notification: the petition (linked), what happened, the longer text when there is one (a
 * response excerpt, a reason, the Hansard link), when, and whether it is read. Used by the header's
 * panel (compact) and the notifications page (with its actions).
 */
import type { ReactNode } from 'react';
import { Link } from '../../components/Link.tsx';
import type { FeedItem } from '../../../src-shared/domain/feed-schemas.ts';
import { feedEventExtra } from '../../../src-shared/rules/feed.ts';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { FEED_TEXTS } from './texts.ts';

/** A link for https addresses (the Hansard record), plain text otherwise. */
function Extra({ text }: { text: string }) {
  return /^https:\/\/\S+$/.test(text) ? (
    <a href={text} rel="noopener noreferrer" target="_blank">
      Read the debate in Hansard<span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  ) : (
    <>{text}</>
  );
}

export function FeedItemView({
  item,
  compact = false,
  onOpen,
  actions,
}: {
  item: FeedItem;
  compact?: boolean;
  /** Called when the member follows the petition link (the panel marks it read). */
  onOpen?: () => void;
  actions?: ReactNode;
}) {
  const extra = feedEventExtra(item.detail);
  return (
    <article className={`feed-item${item.read ? '' : ' feed-item--unread'}${compact ? ' feed-item--compact' : ''}`}>
      <p className="feed-item__summary">
        {item.read ? null : <strong className="feed-item__tag">{FEED_TEXTS.unreadTag}</strong>}
        {item.summary}
      </p>
      <p className="feed-item__petition">
        <Link to={`/petition/${item.petition.id}`} onClick={onOpen}>
          {item.petition.title}
        </Link>
        {compact ? null : (
          <>
            {' '}
            <StatusBadge status={item.petition.status} />
          </>
        )}
      </p>
      {extra && !compact ? (
        <p className="feed-item__extra">
          <Extra text={extra} />
        </p>
      ) : null}
      <p className="feed-item__time">
        <time dateTime={item.at}>{formatDateTime(item.at)}</time>
      </p>
      {actions ? <div className="feed-item__actions">{actions}</div> : null}
    </article>
  );
}
