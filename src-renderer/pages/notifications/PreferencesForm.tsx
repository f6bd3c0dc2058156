/**
 * The member's notification settings: which topics they hear about (src-shared/rules/feed.ts), saved
 * with the button (only the topic switches are sent; the server answers the settings it now holds),
 * and web push for this device, which switches at once (WebPushSwitch).
 */
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { FEED_TOPICS } from '../../../src-shared/domain/feed-constants.ts';
import type { FeedPreferences } from '../../../src-shared/domain/feed-schemas.ts';
import { FEED_TOPIC_LABELS } from '../../../src-shared/rules/feed.ts';
import { Notice } from '../../components/Notice.tsx';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiGetNotificationPreferences, apiGetUnreadNotificationCount, apiUpdateNotificationPreferences } from '../../../src-shared/api/member-calls.ts';
import { useLiveStream } from '../../stores/index.ts';
import { FEED_TEXTS } from './texts.ts';
import { WebPushSwitch } from './WebPushSwitch.tsx';

export function PreferencesForm() {
  const [draft, setDraft] = useState<FeedPreferences | null>(null);
  const [state, setState] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');

  useEffect(() => {
    let current = true;
    apiGetNotificationPreferences(apiCaller).then(
      (preferences) => current && setDraft(preferences),
      () => current && setState('failed'),
    );
    return () => {
      current = false;
    };
  }, []);

  // Arriving from the panel's "Notification settings" link: bring the form into view.
  useEffect(() => {
    if (draft && window.location.hash === '#preferences') document.getElementById('preferences')?.scrollIntoView();
  }, [draft !== null]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft) return;
    setState('saving');
    try {
      setDraft(await apiUpdateNotificationPreferences(apiCaller, { topics: draft.topics }));
      setState('saved');
      const { unread } = await apiGetUnreadNotificationCount(apiCaller);
      useLiveStream.getState().setUnread(unread);
    } catch {
      setState('failed');
    }
  };

  return (
    <section className="feed-section" aria-labelledby="preferences">
      <h2 className="heading-m" id="preferences" tabIndex={-1}>
        {FEED_TEXTS.preferencesTitle}
      </h2>
      {state === 'saved' ? (
        <Notice tone="success" live="status">
          <p>{FEED_TEXTS.preferencesSaved}</p>
        </Notice>
      ) : null}
      {state === 'failed' ? (
        <Notice tone="error" live="alert">
          <p>{FEED_TEXTS.actionFailed}</p>
        </Notice>
      ) : null}
      {draft ? (
        <form onSubmit={(event) => void submit(event)} className="preferences">
          <fieldset className="fieldset-plain">
            <legend className="label">{FEED_TEXTS.preferencesLegend}</legend>
            {FEED_TOPICS.map((topic) => (
              <div className="checkbox" key={topic}>
                <input
                  type="checkbox"
                  id={`topic-${topic}`}
                  aria-describedby={`topic-${topic}-hint`}
                  checked={draft.topics[topic]}
                  onChange={(e) => setDraft({ ...draft, topics: { ...draft.topics, [topic]: e.target.checked } })}
                />
                <label htmlFor={`topic-${topic}`}>{FEED_TOPIC_LABELS[topic].label}</label>
                <p className="hint" id={`topic-${topic}-hint`}>
                  {FEED_TOPIC_LABELS[topic].hint}
                </p>
              </div>
            ))}
          </fieldset>
          <button type="submit" className="button" disabled={state === 'saving'} aria-busy={state === 'saving' || undefined}>
            {FEED_TEXTS.savePreferences}
          </button>
        </form>
      ) : null}
      {draft ? <WebPushSwitch /> : null}
    </section>
  );
}
