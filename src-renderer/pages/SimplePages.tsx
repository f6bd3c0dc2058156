/** Small screens: Page Not Found, maintenance, the OAuth callback, the term redirect, access denied. */
import { Navigate, useParams } from 'react-router-dom';
import { SITE_ERRORS } from '../../src-shared/domain/site-messages.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { ReturnHomeButton } from '../components/ReturnHomeButton.tsx';
import { Loading } from '../components/Loading.tsx';
import { termPetitionsPath } from '../routes.ts';

export function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <div className="error-screen">
      <h1 className="heading-xl">Page Not Found</h1>
      <p className="body-l">The page you are looking for does not exist or has moved.</p>
      <ReturnHomeButton />
    </div>
  );
}

export const MAINTENANCE_TEXT = {
  title: 'Site Under Maintenance',
  body: 'We are making some improvements to the petitions site. It will be back in a few minutes.',
  retry: 'Please try again shortly. You do not need to do anything: this page updates itself.',
} as const;

export function MaintenancePage() {
  useDocumentTitle(MAINTENANCE_TEXT.title);
  return (
    <div className="error-screen maintenance">
      <h1 className="heading-xl">{SITE_ERRORS.maintenance}</h1>
      <p className="body-l">{MAINTENANCE_TEXT.body}</p>
      <p>{MAINTENANCE_TEXT.retry}</p>
    </div>
  );
}

export function AuthCallbackPage() {
  useDocumentTitle('Signing in');
  return (
    <div className="error-screen">
      <h1 className="heading-l">Processing Authentication...</h1>
      <Loading text="Please wait while we sign you in." />
    </div>
  );
}

/** /petitions/term/{id} is only a link target: it becomes /petitions?term={id}. */
export function TermRedirect() {
  const { id } = useParams();
  // Even a malformed id goes to the list, which says the term does not exist instead of listing everything.
  return <Navigate to={termPetitionsPath(id ?? '')} replace />;
}

export function AccessDenied() {
  useDocumentTitle('Access Denied');
  return (
    <div className="error-screen">
      <h1 className="heading-xl">Access Denied</h1>
      <p className="body-l">{SITE_ERRORS.adminOnly}</p>
      <ReturnHomeButton />
    </div>
  );
}
