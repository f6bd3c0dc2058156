/**
 * "This will notify 1,234 signers", said before a response or debate is submitted (web panel and
 * console alike): the count is the server's (GET /api/petitions/{id}/notification-audience), read
 * again after each save. Nothing is shown while it is unknown (loading, or offline without a copy).
 */
import { useEffect, useState } from 'react';
import type { FeedTopic } from '../../../src-shared/domain/feed-constants.ts';
import { notifySignersText } from '../../../src-shared/rules/feed.ts';
import { api } from '../../services/api.ts';

export function NotifyAudience({ petitionId, topic, version }: { petitionId: number; topic: FeedTopic; version: number }) {
  const [signers, setSigners] = useState<number | null>(null);
  useEffect(() => {
    let current = true;
    api.getNotificationAudience(petitionId, topic).then(
      (audience) => current && setSigners(audience.signers),
      () => current && setSigners(null),
    );
    return () => {
      current = false;
    };
  }, [petitionId, topic, version]);
  if (signers === null) return null;
  return (
    <p className="notify-audience" data-topic={topic}>
      {notifySignersText(signers)}
    </p>
  );
}
