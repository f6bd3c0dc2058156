/**
 * Petition detail: loading / not found / error screens, then the petition in its usual
 * order, a live signature count, progress toward the thresholds, a lazily loaded chart, and the
 * lazily loaded Government Admin Panel for staff.
 */
import { Suspense, lazy, useCallback, useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Petition, PetitionCount, PetitionDetail } from '../../../src-shared/domain/schemas.ts';
import { SITE_SUCCESS } from '../../../src-shared/domain/site-messages.ts';
import { milestoneNotices } from '../../../src-shared/rules/classification.ts';
import { formatLongDate } from '../../../src-shared/rules/dates.ts';
import { parsePetitionIdParam } from '../../../src-shared/domain/app-paths.ts';
import { canSeeGovernmentPanel } from '../../../src-shared/rules/permissions.ts';
import { ApiError, apiCaller } from '../../services/apiCaller.ts';
import { apiGetPetitionCount } from '../../../src-shared/api/visitor-calls.ts';
import { announcePetitionsUpdated, useFlash, useLiveStream, usePetitionsVersion, useSession } from '../../stores/index.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { readPetition } from '../../services/bootReads.ts';
import { usePolling } from '../../hooks/usePolling.ts';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { Loading } from '../../components/Loading.tsx';
import { Notice } from '../../components/Notice.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { SignersList } from '../../components/SignersList.tsx';
import { SignatureProgress } from '../../components/SignatureProgress.tsx';
import { CopyLinkButton } from '../../components/CopyLinkButton.tsx';
import { ComponentErrorBoundary } from '../../components/ErrorBoundary.tsx';
import { ReturnHomeButton } from '../../components/ReturnHomeButton.tsx';
import { formatCount } from '../../components/format.ts';
import { petitionPath } from '../../routes.ts';
import { SignSection } from './SignSection.tsx';
import { ClosedNotice, DebateBox, GovernmentResponseBox } from './PetitionBoxes.tsx';
import { TermBanner } from './TermBanner.tsx';
import { TagList } from '../../components/TagList.tsx';

// Staff-only and chart code are separate chunks: citizens never download the panel.
const GovernmentAdminPanel = lazy(() => import('../../staff/GovernmentAdminPanel.tsx'));
const SignaturesChart = lazy(() => import('../../components/SignaturesChart.tsx'));
// Reporting, the hidden or rejected notice and the tombstone (docs/moderation.md): one chunk of their own.
const PetitionModeration = lazy(() => import('./PetitionModeration.tsx'));

/** Without the live stream (it pushes counts), the counter polls while the tab is visible (~10 s). */
export const LIVE_COUNT_INTERVAL_MS = 10_000;

export const DETAIL_TEXT = {
  loading: 'Loading petition...',
  notFoundTitle: 'Petition Not Found',
  notFoundText: "The petition you're looking for doesn't exist or may have been removed.",
  errorTitle: 'Error Loading Petition',
  errorText: 'There was an error loading the petition. Please try again.',
  anonymous: 'Anonymous',
  staffPanelLink: 'Go to the Government Admin Panel',
} as const;

const STAFF_PANEL_ID = 'government-admin-panel';

/** Staff reach their panel from the top instead of scrolling past the signers and the chart. */
function StaffPanelLink() {
  return (
    <p className="staff-panel-link">
      <a
        href={`#${STAFF_PANEL_ID}`}
        onClick={(event) => {
          const target = document.getElementById(STAFF_PANEL_ID);
          if (!target) return;
          event.preventDefault();
          target.scrollIntoView({ block: 'start' });
          target.focus({ preventScroll: true });
        }}
      >
        {DETAIL_TEXT.staffPanelLink}
      </a>
    </p>
  );
}

export function PetitionNotFound() {
  useDocumentTitle(DETAIL_TEXT.notFoundTitle);
  return (
    <div className="error-screen">
      <h1 className="heading-xl">{DETAIL_TEXT.notFoundTitle}</h1>
      <p className="body-l">{DETAIL_TEXT.notFoundText}</p>
      <ReturnHomeButton />
    </div>
  );
}

export function PetitionLoadError({ onRetry }: { onRetry?: () => void }) {
  useDocumentTitle(DETAIL_TEXT.errorTitle);
  return (
    <div className="error-screen">
      <h1 className="heading-xl">{DETAIL_TEXT.errorTitle}</h1>
      <p className="body-l">{DETAIL_TEXT.errorText}</p>
      <div className="button-group">
        <ReturnHomeButton />
        {onRetry ? (
          <button type="button" className="button button--secondary" onClick={onRetry}>
            Try again
          </button>
        ) : null}
      </div>
    </div>
  );
}

function PetitionView({
  petition,
  reload,
  update,
}: {
  petition: PetitionDetail;
  reload: () => void;
  update: (change: (p: PetitionDetail) => PetitionDetail) => void;
}) {
  useDocumentTitle(petition.title);
  const user = useSession((s) => s.user);
  const navigate = useNavigate();

  // Live signature count; a status change (e.g. closed) needs the full petition again.
  const applyCount = (count: PetitionCount) => {
    if (count.status !== petition.status) reload();
    else if (count.signatures !== petition.signatures) update((p) => ({ ...p, signatures: count.signatures }));
  };
  const pushed = useLiveStream((s) => s.counts[petition.id]);
  const streaming = useLiveStream((s) => s.connected);
  useEffect(() => {
    if (pushed) applyCount(pushed);
    // Only a newly pushed count is news; the petition changing on its own is not.
  }, [pushed]);
  usePolling(
    () => {
      apiGetPetitionCount(apiCaller, petition.id).then(applyCount, () => undefined);
    },
    LIVE_COUNT_INTERVAL_MS,
    // (A hidden or rejected petition's count answers 404, which is ignored: docs/moderation.md#what-the-public-sees.)
    { onlyWhenVisible: true, enabled: !streaming },
  );

  const onStaffChanged = useCallback(
    (changed?: Petition) => {
      if (changed) update((p) => ({ ...p, ...changed }));
      reload();
    },
    [update, reload],
  );
  const onDeleted = useCallback(() => {
    useFlash.getState().push({ tone: 'success', text: SITE_SUCCESS.petitionDeleted, path: '/petitions' });
    announcePetitionsUpdated();
    navigate('/petitions');
  }, [navigate]);

  const milestones = milestoneNotices(petition.signatures);
  // Moderators (rank 7 up) see the panel too: its moderation section (docs/moderation.md#who-can-do-what).
  const staff = Boolean(user && canSeeGovernmentPanel(user));
  // A hidden or rejected petition (its creator and moderators only): nobody can sign or share it.
  const moderated = petition.moderation !== undefined;

  return (
    <article className="petition">
      {staff ? <StaffPanelLink /> : null}
      {petition.termId !== null ? <TermBanner termId={petition.termId} /> : null}
      <Suspense>
        {moderated ? <PetitionModeration part="notice" petition={petition} /> : null}
      </Suspense>
      <StatusBadge status={petition.status} />
      <ClosedNotice petition={petition} />
      <h1 className="heading-xl petition__title">{petition.title}</h1>
      <p className="petition__creator">
        Created by <strong>{petition.creator || DETAIL_TEXT.anonymous}</strong>
      </p>
      <TagList tags={petition.tags} />
      <div className="petition__description pre-line">{petition.description}</div>

      <div className="petition__numbers">
        <p className="petition__count">
          <span className="big-number">{formatCount(petition.signatures)}</span>{' '}
          {petition.signatures === 1 ? 'signature' : 'signatures'}
        </p>
        <p className="petition__date">Created {formatLongDate(petition.created)}</p>
      </div>
      <SignatureProgress signatures={petition.signatures} />

      {milestones.map((text) => (
        <Notice key={text} tone="success" className="milestone">
          <p>{text}</p>
        </Notice>
      ))}

      {moderated ? null : (
        <SignSection
          petition={petition}
          onSigned={(result) => {
            update((p) => ({ ...p, signatures: result.signatures, signed_by_viewer: result.signed }));
            reload();
          }}
        />
      )}

      <div className="share">
        <h2 className="heading-s">Share this petition</h2>
        <CopyLinkButton path={petitionPath(petition.id)} />
      </div>

      <GovernmentResponseBox petition={petition} />
      <DebateBox petition={petition} />

      <SignersList petitionId={petition.id} preview={petition.signers} total={petition.signatures} />
      <Suspense>{moderated ? null : <PetitionModeration part="report" petition={petition} />}</Suspense>

      <section className="chart-section" aria-labelledby="chart-heading">
        <h2 className="heading-m" id="chart-heading">
          Signatures over time
        </h2>
        <ComponentErrorBoundary name="SignaturesChart">
          <Suspense fallback={<p className="chart__placeholder">Loading chart...</p>}>
            <SignaturesChart petitionId={petition.id} version={petition.signatures} />
          </Suspense>
        </ComponentErrorBoundary>
      </section>

      {staff && user ? (
        <div id={STAFF_PANEL_ID} tabIndex={-1} className="focus-target">
          <ComponentErrorBoundary name="GovernmentAdminPanel">
            <Suspense fallback={<Loading text="Loading Government Admin Panel..." />}>
              <GovernmentAdminPanel petition={petition} user={user} onChanged={onStaffChanged} onDeleted={onDeleted} />
            </Suspense>
          </ComponentErrorBoundary>
        </div>
      ) : null}
    </article>
  );
}

/** `id` is the path's segment as written (App.tsx). */
export function PetitionDetailPage({ id }: { id: string }) {
  // The same reading of the path as the server's, which answers 404 for what this page calls not found.
  const parsed = parsePetitionIdParam(id);
  const petitionId = parsed ?? 0;
  const valid = parsed !== null;
  const version = usePetitionsVersion((s) => s.version);
  const detail = useAsync(
    () => (valid ? readPetition(petitionId) : Promise.reject(new ApiError(404, 'Petition not found', null))),
    [petitionId, valid, version],
  );
  const { reload, setData } = detail;
  const update = useCallback(
    (change: (p: PetitionDetail) => PetitionDetail) => setData((p) => change(p as PetitionDetail)),
    [setData],
  );

  if (detail.status === 'error') {
    // A 404 on a reload means the petition was deleted meanwhile; other reload failures keep the page.
    // 410 (rejected) carries the reason the public reads instead of the petition (docs/moderation.md#states).
    const rejection = detail.error instanceof ApiError ? detail.error.problem?.rejection : undefined;
    if (rejection) {
      return (
        <Suspense>
          <PetitionModeration part="tombstone" rejection={rejection} />
        </Suspense>
      );
    }
    if (detail.error instanceof ApiError && detail.error.status === 404) return <PetitionNotFound />;
    if (!detail.data || detail.data.id !== petitionId) return <PetitionLoadError onRetry={reload} />;
  }
  if (!detail.data || detail.data.id !== petitionId) return <Loading text={DETAIL_TEXT.loading} />;
  return <PetitionView petition={detail.data} reload={reload} update={update} />;
}
