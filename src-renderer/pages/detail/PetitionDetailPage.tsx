/**
 * Petition detail: loading / not found / error screens (PetitionErrorScreens.tsx), then the petition in its usual
 * order, a live signature count, progress toward the thresholds, a lazily loaded chart, and the
 * lazily loaded Government Admin Panel for staff.
 */
import { Suspense, lazy, useCallback, useEffect, useRef } from 'react';
import type { PetitionCount, PetitionDetail } from '../../../src-shared/domain/schemas.ts';
import { milestoneNotices } from '../../../src-shared/rules/classification.ts';
import { formatLongDate } from '../../../src-shared/rules/dates.ts';
import { parsePetitionIdParam } from '../../../src-shared/domain/app-paths.ts';
import { canReportPetition, canSeeGovernmentPanel } from '../../../src-shared/rules/permissions.ts';
import { ApiError, apiCaller } from '../../services/apiCaller.ts';
import { apiGetPetitionCount } from '../../../src-shared/api/visitor-calls.ts';
import { useLiveStream, usePetitionsVersion, useSession } from '../../stores/index.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { readPetition } from '../../services/bootReads.ts';
import { usePolling } from '../../hooks/usePolling.ts';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { useNearViewport } from '../../hooks/useNearViewport.ts';
import { Loading } from '../../components/Loading.tsx';
import { Notice } from '../../components/Notice.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { SignersList } from '../../components/SignersList.tsx';
import { SignatureProgress } from '../../components/SignatureProgress.tsx';
import { CopyLinkButton } from '../../components/CopyLinkButton.tsx';
import { ComponentErrorBoundary } from '../../components/ErrorBoundary.tsx';
import { formatCount } from '../../components/format.ts';
import { petitionPath } from '../../routes.ts';
import { SignSection, loadMemberSign } from './SignSection.tsx';
import { ClosedNotice, DebateBox, GovernmentResponseBox } from './PetitionBoxes.tsx';
import { TermBanner } from './TermBanner.tsx';
import { TagList } from '../../components/TagList.tsx';

// Staff-only and chart code are separate chunks: citizens never download the panel.
const PetitionStaffSection = lazy(() => import('../../staff/PetitionStaffSection.tsx'));
const SignaturesChart = lazy(() => import('../../components/SignaturesChart.tsx'));
// "Petition Not Found" and "Error Loading Petition": a chunk of their own, fetched when one is shown (nothing is
// drawn for the moment it takes, as for the other rare screens: App.tsx).
const PetitionErrorScreen = lazy(() => import('./PetitionErrorScreens.tsx'));
// Reporting, the hidden or rejected notice and the tombstone (docs/moderation.md): one chunk of their own,
// fetched only when one of them is shown (an anonymous visitor of a public petition never needs it).
const PetitionModeration = lazy(() => import('./PetitionModeration.tsx'));

/** Without the live stream (it pushes counts), the counter polls while the tab is visible (~10 s). */
export const LIVE_COUNT_INTERVAL_MS = 10_000;

export const DETAIL_TEXT = {
  loading: 'Loading petition...',
  anonymous: 'Anonymous',
  staffPanelLink: 'Go to the Government Admin Panel',
} as const;

const STAFF_PANEL_ID = 'government-admin-panel';

const CHART_PLACEHOLDER = <p className="chart__placeholder">Loading chart...</p>;

/**
 * The chart is below the fold on a phone: its chunk and its figures are fetched once the section comes
 * within a screen of the viewport, not with the page (docs/operations.md#javascript-weight). Until then
 * the placeholder the chart shows while loading holds its place, so nothing moves when it arrives.
 */
function ChartSection({ petitionId, version }: { petitionId: number; version: number }) {
  const section = useRef<HTMLElement>(null);
  const near = useNearViewport(section);
  return (
    <section className="chart-section" aria-labelledby="chart-heading" ref={section}>
      <h2 className="heading-m" id="chart-heading">
        Signatures over time
      </h2>
      {near ? (
        <ComponentErrorBoundary name="SignaturesChart">
          <Suspense fallback={CHART_PLACEHOLDER}>
            <SignaturesChart petitionId={petitionId} version={version} />
          </Suspense>
        </ComponentErrorBoundary>
      ) : (
        CHART_PLACEHOLDER
      )}
    </section>
  );
}

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
      <Suspense>{!moderated && canReportPetition(user, petition) ? <PetitionModeration part="report" petition={petition} /> : null}</Suspense>

      <ChartSection petitionId={petition.id} version={petition.signatures} />

      {staff && user ? (
        <div id={STAFF_PANEL_ID} tabIndex={-1} className="focus-target">
          <ComponentErrorBoundary name="GovernmentAdminPanel">
            <Suspense fallback={<Loading text="Loading Government Admin Panel..." />}>
              <PetitionStaffSection petition={petition} user={user} reload={reload} update={update} />
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
  // A member's sign button is a chunk of its own: fetched once the session names a member, alongside the petition.
  const signedIn = useSession((s) => s.user !== null);
  useEffect(() => {
    if (signedIn) loadMemberSign().catch(() => undefined);
  }, [signedIn]);
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
    const notFound = detail.error instanceof ApiError && detail.error.status === 404;
    if (notFound || !detail.data || detail.data.id !== petitionId) {
      return (
        <Suspense fallback={null}>
          <PetitionErrorScreen kind={notFound ? 'not-found' : 'error'} onRetry={reload} />
        </Suspense>
      );
    }
  }
  if (!detail.data || detail.data.id !== petitionId) return <Loading text={DETAIL_TEXT.loading} />;
  return <PetitionView petition={detail.data} reload={reload} update={update} />;
}
