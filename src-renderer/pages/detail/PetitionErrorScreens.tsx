/** The petition page's "Petition Not Found" and "Error Loading Petition" screens, a chunk of their own (PetitionDetailPage.tsx). */
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { ReturnHomeButton } from '../../components/ReturnHomeButton.tsx';

const ERROR_TEXT = {
  notFoundTitle: 'Petition Not Found',
  notFoundText: "The petition you're looking for doesn't exist or may have been removed.",
  errorTitle: 'Error Loading Petition',
  errorText: 'There was an error loading the petition. Please try again.',
} as const;

function PetitionNotFound() {
  useDocumentTitle(ERROR_TEXT.notFoundTitle);
  return (
    <div className="error-screen">
      <h1 className="heading-xl">{ERROR_TEXT.notFoundTitle}</h1>
      <p className="body-l">{ERROR_TEXT.notFoundText}</p>
      <ReturnHomeButton />
    </div>
  );
}

function PetitionLoadError({ onRetry }: { onRetry?: () => void }) {
  useDocumentTitle(ERROR_TEXT.errorTitle);
  return (
    <div className="error-screen">
      <h1 className="heading-xl">{ERROR_TEXT.errorTitle}</h1>
      <p className="body-l">{ERROR_TEXT.errorText}</p>
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

/** Which screen the page needs; `onRetry` is offered by the load error only. */
export default function PetitionErrorScreen({ kind, onRetry }: { kind: 'not-found' | 'error'; onRetry?: () => void }) {
  return kind === 'not-found' ? <PetitionNotFound /> : <PetitionLoadError onRetry={onRetry} />;
}
