/** Page frame: skip link, header, main landmark (focus target after navigation), footer. */
import { Suspense, lazy } from 'react';
import type { ReactNode } from 'react';
import { Header } from './Header.tsx';
import { Footer } from './Footer.tsx';
import { useFlash, useSession } from '../stores/index.ts';

// Most visits have no notice to show, so the notices' code is a chunk fetched when there is one
// (docs/operations.md#javascript-weight).
const FlashNotices = lazy(() => import('./FlashNotices.tsx').then((m) => ({ default: m.FlashNotices })));

/** The notices, once there is anything for them to show (or to forget on a later page). */
function Notices() {
  const pending = useFlash((s) => s.notices.length > 0);
  const sessionError = useSession((s) => s.error !== null);
  const groupsUnavailable = useSession((s) => s.user?.groups_unavailable === true);
  if (!pending && !sessionError && !groupsUnavailable) return null;
  return (
    <Suspense fallback={null}>
      <FlashNotices />
    </Suspense>
  );
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <div className="app">
      <a href="#main-content" className="skip-link">
        Skip to main content
      </a>
      <Header />
      <main className="page-width main" id="main-content" tabIndex={-1}>
        <Notices />
        {children}
      </main>
      <Footer />
    </div>
  );
}
