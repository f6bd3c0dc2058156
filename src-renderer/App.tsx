/**
 * The app's routes inside the page frame, the maintenance gate, and the sign-in completion.
 * Staff screens and rarely visited pages are lazy chunks.
 */
import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { bypassesMaintenance, canManageTerms } from '../src-shared/rules/permissions.ts';
import { useSession, useSite } from './stores/index.ts';
import { useAppBootstrap } from './hooks/useAppBootstrap.ts';
import { useRouteChangeEffects } from './hooks/useRouteChangeEffects.ts';
import { Layout } from './components/Layout.tsx';
import { AuthCompletion } from './components/AuthCompletion.tsx';
import { ComponentErrorBoundary } from './components/ErrorBoundary.tsx';
import { Loading } from './components/Loading.tsx';
import { Notice } from './components/Notice.tsx';
import { TermRedirect } from './pages/TermRedirect.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { AUTH_CALLBACK_PATH } from './routes.ts';
import { routeMatcher } from './routeMatch.ts';
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
  loadSimplePages,
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
// Screens few visits show (maintenance, access denied, the sign-in callback): one small chunk.
const MaintenancePage = lazy(() => loadSimplePages().then((m) => ({ default: m.MaintenancePage })));
const AccessDenied = lazy(() => loadSimplePages().then((m) => ({ default: m.AccessDenied })));
const AuthCallbackPage = lazy(() => loadSimplePages().then((m) => ({ default: m.AuthCallbackPage })));

function Lazy({ children, text }: { children: ReactNode; text?: string }) {
  return <Suspense fallback={<Loading text={text} />}>{children}</Suspense>;
}

/** One of the small screens: nothing until its chunk is there (a moment), rather than a spinner before one line of text. */
const simplePage = (page: ReactNode) => <Suspense fallback={null}>{page}</Suspense>;

/**
 * A staff page: once the session is known, the lazy page for whoever holds the right, else Access
 * Denied (term management: the administrator). The server refuses the calls anyway.
 */
function StaffRoute({ allowed, children }: { allowed: (user: User | null) => boolean; children: ReactNode }) {
  const user = useSession((s) => s.user);
  const loading = useSession((s) => s.status === 'loading');
  if (loading) return <Loading text="Checking your account..." />;
  if (!allowed(user)) return simplePage(<AccessDenied />);
  return <Lazy>{children}</Lazy>;
}

/** A route's page inside its loading placeholder. */
const lazyPage = (page: ReactNode, text?: string) => <Lazy text={text}>{page}</Lazy>;

type Params = Record<string, string>;

/** Every page by its path, in any order (no two paths match the same address); anything else is Page Not Found. */
const ROUTES: [path: string, page: (params: Params) => ReactNode][] = [
  [APP_PATHS.home, () => lazyPage(<HomePage />)],
  [APP_PATHS.petitions, () => lazyPage(<PetitionListPage />, 'Loading petitions...')],
  [APP_PATHS.termPetitions, ({ id }) => <TermRedirect id={id!} />],
  [APP_PATHS.petition, ({ id }) => lazyPage(<PetitionDetailPage id={id!} />, 'Loading petition...')],
  [APP_PATHS.createPetition, () => lazyPage(<CreatePetitionPage />)],
  [APP_PATHS.privacy, () => lazyPage(<PrivacyPolicyPage />)],
  [APP_PATHS.termsAndConditions, () => lazyPage(<TermsAndConditionsPage />)],
  [
    APP_PATHS.termManagement,
    () => (
      <StaffRoute allowed={canManageTerms}>
        <TermManagementPage />
      </StaffRoute>
    ),
  ],
  // The page waits for the session and turns away whoever may not moderate itself (a lazy staff chunk).
  [APP_PATHS.moderation, () => lazyPage(<ModerationPage />)],
  [APP_PATHS.myPetitions, () => lazyPage(<MyPetitionsPage />, 'Loading your petitions...')],
  [APP_PATHS.account, () => lazyPage(<AccountPage />)],
  [APP_PATHS.notifications, () => lazyPage(<NotificationsPage />, 'Loading notifications...')],
  // The page itself turns away anyone but the administrator (and the server refuses the figures).
  [APP_PATHS.statistics, () => lazyPage(<StatisticsPage />)],
  [AUTH_CALLBACK_PATH, () => simplePage(<AuthCallbackPage />)],
];
const MATCHERS = ROUTES.map(([path, page]) => [routeMatcher(path), page] as const);

/** The page at the current address (routeMatch.ts says how addresses match, and why not react-router's <Routes>). */
export function AppRoutes() {
  const { pathname } = useLocation();
  for (const [match, page] of MATCHERS) {
    const params = match(pathname);
    if (params) return page(params);
  }
  return <NotFoundPage />;
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
        {deciding ? <Loading /> : blocked ? simplePage(<MaintenancePage />) : <AppRoutes />}
      </ComponentErrorBoundary>
    </Layout>
  );
}
