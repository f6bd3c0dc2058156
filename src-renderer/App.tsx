/**
 * The app's routes inside the page frame, the maintenance gate, and the sign-in completion.
 * Staff screens and rarely visited pages are lazy chunks.
 */
import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router-dom';
import { bypassesMaintenance, canManageTerms } from '../src-shared/rules/permissions.ts';
import { useSession, useSite } from './stores/index.ts';
import { useAppBootstrap } from './hooks/useAppBootstrap.ts';
import { useRouteChangeEffects } from './hooks/useRouteChangeEffects.ts';
import { Layout } from './components/Layout.tsx';
import { AuthCompletion } from './components/AuthCompletion.tsx';
import { ComponentErrorBoundary } from './components/ErrorBoundary.tsx';
import { Loading } from './components/Loading.tsx';
import { Notice } from './components/Notice.tsx';
import {
  AccessDenied,
  AuthCallbackPage,
  MaintenancePage,
  NotFoundPage,
  TermRedirect,
} from './pages/SimplePages.tsx';
import { AUTH_CALLBACK_PATH } from './routes.ts';
import { APP_PATHS } from '../src-shared/domain/app-paths.ts';
import type { User } from '../src-shared/domain/schemas.ts';
import {
  loadCreatePage,
  loadDetailPage,
  loadHomePage,
  loadLegalPages,
  loadListPage,
  loadStatisticsPage,
  loadAccountPage,
  loadMyPetitionsPage,
  loadNotificationsPage,
  loadModerationPage,
  loadTermManagementPage,
} from './routeModules.ts';

const HomePage = lazy(() => loadHomePage().then((m) => ({ default: m.HomePage })));
const PetitionListPage = lazy(() => loadListPage().then((m) => ({ default: m.PetitionListPage })));
const PetitionDetailPage = lazy(() => loadDetailPage().then((m) => ({ default: m.PetitionDetailPage })));
const CreatePetitionPage = lazy(() => loadCreatePage().then((m) => ({ default: m.CreatePetitionPage })));
const PrivacyPolicyPage = lazy(() => loadLegalPages().then((m) => ({ default: m.PrivacyPolicyPage })));
const TermsAndConditionsPage = lazy(() => loadLegalPages().then((m) => ({ default: m.TermsAndConditionsPage })));
const TermManagementPage = lazy(loadTermManagementPage);
const ModerationPage = lazy(loadModerationPage);
const StatisticsPage = lazy(loadStatisticsPage);
const MyPetitionsPage = lazy(() => loadMyPetitionsPage().then((m) => ({ default: m.MyPetitionsPage })));
const AccountPage = lazy(() => loadAccountPage().then((m) => ({ default: m.AccountPage })));
const NotificationsPage = lazy(() => loadNotificationsPage().then((m) => ({ default: m.NotificationsPage })));

function Lazy({ children, text }: { children: ReactNode; text?: string }) {
  return <Suspense fallback={<Loading text={text} />}>{children}</Suspense>;
}

/**
 * A staff page: once the session is known, the lazy page for whoever holds the right, else Access
 * Denied (term management: the administrator). The server refuses the calls anyway.
 */
function StaffRoute({ allowed, children }: { allowed: (user: User | null) => boolean; children: ReactNode }) {
  const user = useSession((s) => s.user);
  const loading = useSession((s) => s.status === 'loading');
  if (loading) return <Loading text="Checking your account..." />;
  if (!allowed(user)) return <AccessDenied />;
  return <Lazy>{children}</Lazy>;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route
        path={APP_PATHS.home}
        element={
          <Lazy>
            <HomePage />
          </Lazy>
        }
      />
      <Route
        path={APP_PATHS.petitions}
        element={
          <Lazy text="Loading petitions...">
            <PetitionListPage />
          </Lazy>
        }
      />
      <Route path={APP_PATHS.termPetitions} element={<TermRedirect />} />
      <Route
        path={APP_PATHS.petition}
        element={
          <Lazy text="Loading petition...">
            <PetitionDetailPage />
          </Lazy>
        }
      />
      <Route
        path={APP_PATHS.createPetition}
        element={
          <Lazy>
            <CreatePetitionPage />
          </Lazy>
        }
      />
      <Route
        path={APP_PATHS.privacy}
        element={
          <Lazy>
            <PrivacyPolicyPage />
          </Lazy>
        }
      />
      <Route
        path={APP_PATHS.termsAndConditions}
        element={
          <Lazy>
            <TermsAndConditionsPage />
          </Lazy>
        }
      />
      <Route
        path={APP_PATHS.termManagement}
        element={
          <StaffRoute allowed={canManageTerms}>
            <TermManagementPage />
          </StaffRoute>
        }
      />
      {/* The page waits for the session and turns away whoever may not moderate itself (a lazy staff chunk). */}
      <Route
        path={APP_PATHS.moderation}
        element={
          <Lazy>
            <ModerationPage />
          </Lazy>
        }
      />
      <Route
        path={APP_PATHS.myPetitions}
        element={
          <Lazy text="Loading your petitions...">
            <MyPetitionsPage />
          </Lazy>
        }
      />
      <Route
        path={APP_PATHS.account}
        element={
          <Lazy>
            <AccountPage />
          </Lazy>
        }
      />
      <Route
        path={APP_PATHS.notifications}
        element={
          <Lazy text="Loading notifications...">
            <NotificationsPage />
          </Lazy>
        }
      />
      {/* The page itself turns away anyone but the administrator (and the server refuses the figures). */}
      <Route
        path={APP_PATHS.statistics}
        element={
          <Lazy>
            <StatisticsPage />
          </Lazy>
        }
      />
      <Route path={AUTH_CALLBACK_PATH} element={<AuthCallbackPage />} />
      <Route path="*" element={<NotFoundPage />} />
    </Routes>
  );
}

export function App() {
  useAppBootstrap();
  useRouteChangeEffects();
  const { pathname } = useLocation();
  const maintenance = useSite((s) => s.maintenance);
  const user = useSession((s) => s.user);
  const sessionLoading = useSession((s) => s.status === 'loading');
  // While maintenance is on only the administrator passes (docs/rules.md#maintenance). The callback still runs so the
  // administrator can sign in.
  const blocked = maintenance && !bypassesMaintenance(user) && pathname !== AUTH_CALLBACK_PATH;
  // Until the session answers we do not know whether this is the administrator: no flash of either.
  const deciding = blocked && sessionLoading;

  return (
    <Layout>
      <AuthCompletion />
      {/* A new key per path resets a crashed page when the user navigates away. */}
      <ComponentErrorBoundary key={pathname} name="page">
        {maintenance && bypassesMaintenance(user) ? (
          <Notice tone="warning" className="maintenance-on">
            <p>
              <strong>Maintenance mode is on.</strong> Only you, the System Administrator, can use the site until it
              is switched off.
            </p>
          </Notice>
        ) : null}
        {deciding ? <Loading /> : blocked ? <MaintenancePage /> : <AppRoutes />}
      </ComponentErrorBoundary>
    </Layout>
  );
}
