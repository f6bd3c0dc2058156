/**
 * Every page is its own chunk so the initial download stays small (tests/renderer-unit/bundle-budget.test.ts
 * budgets every public page). `prefetchRoute` starts loading the current page's chunk at boot, in
 * parallel with the first render, so lazy loading adds no request waterfall.
 */
export const loadHomePage = () => import('./pages/HomePage.tsx');
export const loadListPage = () => import('./pages/PetitionListPage.tsx');
export const loadDetailPage = () => import('./pages/detail/PetitionDetailPage.tsx');
export const loadCreatePage = () => import('./pages/create/CreatePetitionPage.tsx');
export const loadLegalPages = () => import('./pages/LegalPages.tsx');
// The member's pages, each its own chunk (their shared parts are small chunks of their own).
export const loadMyPetitionsPage = () => import('./pages/notifications/MyPetitionsPage.tsx');
export const loadNotificationsPage = () => import('./pages/notifications/NotificationsPage.tsx');
export const loadAccountPage = () => import('./pages/notifications/AccountPage.tsx');
/** Maintenance, access denied, the sign-in callback (App.tsx). */
export const loadSimplePages = () => import('./pages/SimplePages.tsx');
/** The header's notifications panel. */
export const loadNotificationsPanel = () => import('./pages/notifications/NotificationsPanel.tsx');
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
              : pathname === '/my-petitions'
                ? loadMyPetitionsPage
                : pathname === '/notifications'
                  ? loadNotificationsPage
                  : pathname === '/account'
                    ? loadAccountPage
                    : pathname === '/auth/callback'
                      ? loadSimplePages
                      : null;
  // A failed prefetch is harmless: React.lazy retries the import and shows the error boundary.
  load?.().catch(() => undefined);
}
