/**
 * One petition with the form the user came for: the government response (rank 6+) or the debate
 * (rank 7+). Submitting queues the action in the outbox (based on the version shown here) and moves
 * on to the next petition of the queue; the item leaves the queue once the server applied it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { Petition } from '../../../src-shared/domain/schemas.ts';
import type { StaffActionInput } from '../../../src-shared/console/staff-actions.ts';
import { CONFIRMATIONS } from '../../../src-shared/domain/messages.ts';
import { debateBoxText, statusLabel } from '../../../src-shared/rules/classification.ts';
import { formatDateTime } from '../../../src-shared/rules/dates.ts';
import {
  canDeletePetition,
  canManageDebate,
  canManageGovernmentResponse,
} from '../../../src-shared/rules/permissions.ts';
import { ConfirmDialog } from '../../components/Dialog.tsx';
import { signaturesText } from '../../components/format.ts';
import { STAFF_TEXTS } from '../../staff/lib/texts.ts';
import { errorMessage } from '../consoleApi.ts';
import { readWebScreensThroughConsole } from '../staffSeam.ts';
import { dataAge } from '../format.ts';
import { chipFor, latestEntryFor, nextInQueue, QUEUES } from '../queues.ts';
import type { FormMode, QueueKind } from '../queues.ts';
import { useStores } from '../state/context.tsx';
import { useOnline, useQueueItems, useUser } from '../state/selectors.ts';
import { useShortcutKeys } from '../shortcutKeys.ts';
import { Chip } from '../components/Chip.tsx';
import { PresenceNotice } from '../components/Presence.tsx';
import { PresenceSummary, usePresenceSpot } from '../components/PresenceOnPetition.tsx';
import { claimedByOthers, SKIPPED_CLAIM_TEXTS } from '../../../src-shared/rules/presence.ts';
import { ResponseForm } from './ResponseForm.tsx';
import { DebateForm } from './DebateForm.tsx';
import { takeTypedAhead } from '../typeAhead.ts';

export function PetitionScreen({ id, mode, from }: { id: number; mode: FormMode | null; from: QueueKind | null }) {
  const stores = useStores();
  const { data, nav, outbox, toasts } = stores;
  // The forms reuse web panel parts that read through the web's API client ("This will notify …").
  useMemo(() => readWebScreensThroughConsole(stores.api), [stores]);
  const user = useUser();
  const online = useOnline();
  const page = data((s) => s.petitions[id]);
  // Subscribing to the queues too: a row read later may carry a newer version than the page.
  data((s) => s.queues);
  const petition = data.getState().petition(id);
  const entries = outbox((s) => s.entries);
  const entry = latestEntryFor(entries, id);
  const queueItems = useQueueItems(from ?? 'response');
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const mayRespond = canManageGovernmentResponse(user);
  const mayDebate = canManageDebate(user);
  // Being here is presence; an open form claims the petition (docs/console-team.md#claims).
  const activity = mode === 'respond' && mayRespond ? 'responding' : mode === 'debate' && mayDebate ? 'debating' : 'viewing';
  const spot = usePresenceSpot(id, activity);

  useEffect(() => {
    void data.getState().loadPetition(id);
  }, [data, id]);
  // A petition that cannot be read opens no form: keys held for one are dropped at once (typeAhead.ts).
  useEffect(() => {
    if (page?.status === 'error') takeTypedAhead();
  }, [page?.status]);

  useEffect(() => {
    if (!mode) headingRef.current?.focus();
  }, [mode]);

  // r and d switch forms here too (outside fields); the key is consumed, so it never lands in the form.
  useShortcutKeys({
    r: mayRespond && (() => nav.getState().go({ name: 'petition', id, mode: 'respond', from })),
    d: mayDebate && (() => nav.getState().go({ name: 'petition', id, mode: 'debate', from })),
  });

  if (!petition) {
    return (
      <section className="console-screen" aria-labelledby="petition-title">
        <h1 className="heading-l" id="petition-title" ref={headingRef} tabIndex={-1}>
          Petition #{id}
        </h1>
        <p role="status">
          {page?.status === 'error' ? `This petition could not be read: ${page.error}` : 'Loading petition…'}
        </p>
      </section>
    );
  }

  /**
   * Goes on to the next petition still waiting in this queue at once, and queues the action on the
   * way (the local outbox answers in milliseconds; if it refuses, the draft is still kept and a toast
   * says so, with the petition's number).
   */
  const queueAndMoveOn = async (action: StaffActionInput, draftKey: string | null, moveOn: boolean) => {
    let skipped = false;
    if (moveOn && from) {
      const unsent = queueItems.filter((p) => {
        const live = latestEntryFor(outbox.getState().entries, p.id);
        return p.id === id || !live || live.state === 'applied';
      });
      // "Next" passes over petitions a colleague is answering now; they are not blocked, only skipped.
      const claimed = claimedByOthers(stores.presence.getState().view.entries, user?.id ?? null);
      const waiting = unsent.filter((p) => p.id === id || !claimed.has(p.id));
      const next = nextInQueue(waiting, id);
      skipped = nextInQueue(unsent, id)?.id !== next?.id;
      if (skipped) toasts.getState().push('info', next ? SKIPPED_CLAIM_TEXTS.skipped : SKIPPED_CLAIM_TEXTS.allClaimed);
      if (next) {
        nav.getState().select(from, next.id);
        nav.getState().go({ name: 'petition', id: next.id, mode: mode ?? QUEUES[from].mode, from });
      } else {
        nav.getState().go({ name: 'queue', kind: from });
      }
    }
    try {
      const [queued] = await outbox.getState().enqueue([action]);
      toasts.getState().push('info', `Queued: ${queued?.summary ?? 'action'}${online ? '' : ' (offline: sent when back online)'}`);
      if (draftKey) nav.getState().clearDraft(draftKey);
      if (moveOn && from && !skipped && nav.getState().screen.name === 'queue') {
        toasts.getState().push('info', 'That was the last petition waiting in this queue.');
      }
    } catch (error) {
      toasts.getState().push('error', `Could not queue the action for petition #${id}: ${errorMessage(error)}. Your draft is kept.`);
    }
  };

  const age = dataAge(page?.fetchedAt ?? null, page?.fromCache ?? false);
  const chip = chipFor(entry, online);
  return (
    <article className="console-screen console-petition" aria-labelledby="petition-title">
      <div className="console-screen__head">
        <p className="console-breadcrumb">
          {from ? (
            <button type="button" className="console-link-button" onClick={() => nav.getState().back()}>
              ← {QUEUES[from].title} <kbd>Esc</kbd>
            </button>
          ) : null}
        </p>
        <h1 className="heading-l" id="petition-title" ref={headingRef} tabIndex={-1}>
          <span className="console-row__number">#{petition.id}</span> {petition.title}
        </h1>
        <p className="console-age" data-testid="data-age">
          {signaturesText(petition.signatures)} · {statusLabel(petition.status)} · created{' '}
          {formatDateTime(petition.created)} · version {petition.version}
          {age ? ` · ${age}` : ''}
        </p>
        <PresenceSummary petitionId={petition.id} activity={activity} />
        <PresenceNotice />
        {chip ? (
          <p className="console-petition__chip">
            <Chip chip={chip} /> {entry?.summary}
            {entry?.lastError ? ` — ${entry.lastError}` : ''}
          </p>
        ) : null}
      </div>
      <div className="console-petition__grid">
        <div className="console-petition__facts">
          <h2 className="heading-s">Petition</h2>
          <p className="console-petition__description">{petition.description}</p>
          {petition.tags.length ? <p className="console-hint">Tags: {petition.tags.join(', ')}</p> : null}
          <h2 className="heading-s">Government response</h2>
          <CurrentResponse petition={petition} />
          <h2 className="heading-s">Debate</h2>
          <p>{debateBoxText(petition.debateInfo) ?? STAFF_TEXTS.debateNone}</p>
          {petition.debateInfoMeta ? <MetaLine meta={petition.debateInfoMeta} /> : null}
        </div>
        {/* Typing in a form renews its claim. */}
        <div className="console-petition__work" onInput={spot.renew}>
          <div className="console-tabs" role="group" aria-label="Work on this petition">
            {mayRespond ? (
              <button
                type="button"
                className={`button ${mode === 'respond' ? '' : 'button--secondary'} console-small`}
                aria-pressed={mode === 'respond'}
                aria-keyshortcuts="R"
                onClick={() => nav.getState().go({ name: 'petition', id, mode: 'respond', from })}
              >
                Respond <kbd>r</kbd>
              </button>
            ) : null}
            {mayDebate ? (
              <button
                type="button"
                className={`button ${mode === 'debate' ? '' : 'button--secondary'} console-small`}
                aria-pressed={mode === 'debate'}
                aria-keyshortcuts="D"
                onClick={() => nav.getState().go({ name: 'petition', id, mode: 'debate', from })}
              >
                Debate <kbd>d</kbd>
              </button>
            ) : null}
            {canDeletePetition(user) ? (
              <button
                type="button"
                className="button button--warning console-small"
                onClick={() => setConfirmDelete(true)}
              >
                {STAFF_TEXTS.deletePetition}
              </button>
            ) : null}
          </div>
          {mode === 'respond' && mayRespond && user ? (
            <ResponseForm petition={petition} user={user} onQueue={queueAndMoveOn} />
          ) : null}
          {mode === 'debate' && mayDebate && user ? (
            <DebateForm petition={petition} user={user} onQueue={queueAndMoveOn} />
          ) : null}
        </div>
      </div>
      <ConfirmDialog
        open={confirmDelete}
        title={STAFF_TEXTS.deletePetitionTitle}
        message={CONFIRMATIONS.deletePetition}
        confirmLabel={STAFF_TEXTS.deletePetition}
        danger
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          void queueAndMoveOn({ kind: 'petition.delete', petitionId: id, baseVersion: petition.version }, null, true);
        }}
      />
    </article>
  );
}

function MetaLine({ meta }: { meta: NonNullable<Petition['governmentResponseMeta']> }) {
  return (
    <p className="console-hint">
      Added by {meta.addedBy} ({meta.addedByRole}), {formatDateTime(meta.addedAt)}
      {meta.editedBy ? ` · edited by ${meta.editedBy} (${meta.editedByRole ?? ''}), ${formatDateTime(meta.editedAt ?? '')}` : ''}
    </p>
  );
}

function CurrentResponse({ petition }: { petition: Petition }) {
  if (!petition.governmentResponse) return <p>No government response yet.</p>;
  return (
    <>
      <blockquote className="console-quote">{petition.governmentResponse}</blockquote>
      {petition.governmentResponseMeta ? <MetaLine meta={petition.governmentResponseMeta} /> : null}
    </>
  );
}
