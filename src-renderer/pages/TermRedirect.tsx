import { useEffect } from 'react';
import { useNavigate } from '../navigation.ts';
import { termPetitionsPath } from '../routes.ts';

/**
 * /petitions/term/{id} is only a link target: it becomes /petitions?term={id}. It navigates as react-router's
 * <Navigate replace> would, with the app's own navigate: <Navigate>'s code served this screen alone
 * (docs/operations.md#javascript-weight).
 */
export function TermRedirect({ id }: { id: string }) {
  const navigate = useNavigate();
  // Even a malformed id goes to the list, which says the term does not exist instead of listing everything.
  const to = termPetitionsPath(id);
  useEffect(() => {
    navigate(to, { replace: true });
  }, [navigate, to]);
  return null;
}
