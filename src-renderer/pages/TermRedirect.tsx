import { Navigate } from 'react-router-dom';
import { termPetitionsPath } from '../routes.ts';

/** /petitions/term/{id} is only a link target: it becomes /petitions?term={id}. */
export function TermRedirect({ id }: { id: string }) {
  // Even a malformed id goes to the list, which says the term does not exist instead of listing everything.
  return <Navigate to={termPetitionsPath(id)} replace />;
}
