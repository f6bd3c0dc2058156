/**
 * Every page is its own chunk so the initial download stays small (budget: 100 KB gzip for the
 * home and petition pages). `prefetchRoute` starts loading the current page's chunk at boot, in
 * parallel with the first render, so lazy loading adds no request waterfall.
 */
export const loadHomePage = () => import('./pages/HomePage.tsx');
export const loadListPage = () => import('./pages/PetitionListPage.tsx');
export const loadDetailPage = () => import('./pages/detail/PetitionDetailPage.tsx');
export const loadCreatePage = () => import('./pages/create/CreatePetitionPage.tsx');
export const loadLegalPages = () => import('./pages/LegalPages.tsx');
/** My petitions, the notifications page and the header's panel: one chunk (pages/notifications/index.ts). */
export const loadMemberPages = () => import('./pages/notifications/index.ts');
// Administrator screen, built in src-renderer/staff/ by the staff engineer.
export const loadTermManagementPage = () => import('./staff/TermManagementPage.tsx');
// Moderators' queue (docs/moderation.md), a staff chunk of its own.
export const loadModerationPage = () => import('./staff/moderation/ModerationPage.tsx');
export const loadStatisticsPage = () => import('./staff/StatisticsPage.tsx');

export function prefetchRoute(pathname: string): void {
  const load =
    pathname === '/'
      ? loadHomePage
      : pathname === '/petitions'
        ? loadListPage
        : pathname.startsWith('/petition/')
          ? loadDetailPage
          : pathname === '/create-petition'
            ? loadCreatePage
            : pathname === '/privacypolicy' || pathname === '/terms-and-conditions'
              ? loadLegalPages
              : pathname === '/my-petitions' || pathname === '/notifications' || pathname === '/account'
                ? loadMemberPages
                : null;
  // A failed prefetch is harmless: React.lazy retries the import and shows the error boundary.
  load?.().catch(() => undefined);
}
