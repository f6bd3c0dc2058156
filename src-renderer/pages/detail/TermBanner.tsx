/**
 * 'Submitted during {term}' banner with a link to the term's other petitions. If the term has
 * no other petitions, following the link shows a notice saying so instead of an empty list.
 */
import { useState } from 'react';
import { Link } from '../../components/Link.tsx';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiListPetitions } from '../../../src-shared/api/visitor-calls.ts';
import { termName, useSite } from '../../stores/index.ts';
import { useAsync } from '../../hooks/useAsync.ts';
import { termPetitionsPath } from '../../routes.ts';

export function TermBanner({ termId }: { termId: number }) {
  const terms = useSite((s) => s.terms);
  const name = termName(terms, termId) ?? `Term ${termId}`;
  const others = useAsync(() => apiListPetitions(apiCaller, { term: termId, pageSize: 1 }), [termId]);
  const [none, setNone] = useState(false);
  return (
    <div className="term-banner">
      <p>
        This petition was submitted during <strong>{name}</strong>.{' '}
        <Link
          to={termPetitionsPath(termId)}
          onClick={(event) => {
            if (others.data && others.data.total <= 1) {
              event.preventDefault();
              setNone(true);
            }
          }}
        >
          View other petitions from {name}
        </Link>
      </p>
      {none ? (
        <p className="term-banner__none" role="alert">
          There are no other petitions from {name}.
        </p>
      ) : null}
    </div>
  );
}
