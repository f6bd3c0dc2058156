/** Page Not Found: any address no route matches, so it comes with the first download. */
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { ReturnHomeButton } from '../components/ReturnHomeButton.tsx';

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
