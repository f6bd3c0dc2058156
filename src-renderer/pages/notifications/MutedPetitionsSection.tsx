/** The petitions the member stopped updates for, each with "Resume updates for this petition". */
import { useEffect, useState } from 'react';
import { Link } from '../../components/Link.tsx';
import type { MutedPetitions as MutedList } from '../../../src-shared/domain/feed-schemas.ts';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiListMutedPetitions } from '../../../src-shared/api/member-calls.ts';
import { FEED_TEXTS } from './texts.ts';
import { useMuteToggle } from './useMuteToggle.ts';

export function MutedPetitionsSection({ version, onChanged }: { version: number; onChanged: () => void }) {
  const [muted, setMuted] = useState<MutedList | null>(null);
  useEffect(() => {
    let current = true;
    apiListMutedPetitions(apiCaller).then(
      (list) => current && setMuted(list),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [version]);
  const mute = useMuteToggle(onChanged);

  return (
    <section className="feed-section" aria-labelledby="muted-heading">
      <h2 className="heading-m" id="muted-heading">
        {FEED_TEXTS.mutedTitle}
      </h2>
      {muted && muted.items.length === 0 ? <p>{FEED_TEXTS.mutedEmpty}</p> : null}
      {muted && muted.items.length > 0 ? (
        <ul className="list muted-list">
          {muted.items.map(({ petition }) => (
            <li key={petition.id}>
              <Link to={`/petition/${petition.id}`}>{petition.title}</Link>
              <button
                type="button"
                className="button button--secondary"
                disabled={mute.busy === petition.id}
                onClick={() => void mute.toggle(petition.id, false)}
              >
                {FEED_TEXTS.resumeUpdates}
                <span className="visually-hidden">: {petition.title}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
