/**
 * Small screens: maintenance, the OAuth callback, access denied. Few visits show one, so they are a chunk of
 * their own (App.tsx), fetched when one is shown. Page Not Found is in the first download (NotFoundPage.tsx).
 */
export { NotFoundPage } from './NotFoundPage.tsx';
import { SITE_ERRORS } from '../../src-shared/domain/site-messages.ts';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { ReturnHomeButton } from '../components/ReturnHomeButton.tsx';
import { Loading } from '../components/Loading.tsx';

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
