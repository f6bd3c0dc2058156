/**
 * Similar petitions under the title field (docs/moderation.md#similar-petitions): once the title
 * has a few characters and typing pauses, up to five open petitions that look alike, each linked,
 * asking "Sign this one instead?". The creator may carry on regardless. The list sits in a polite
 * live region, so a screen reader hears that it appeared without losing its place in the form.
 */
import { Link } from '../../components/Link.tsx';
import { TITLE_MIN } from '../../../src-shared/domain/constants.ts';
import { SIMILAR_PETITIONS_DEBOUNCE_MS } from '../../../src-shared/domain/moderation-constants.ts';
import { MODERATION_TEXTS } from '../../../src-shared/domain/moderation-texts.ts';
import { useDebouncedSearch } from '../../hooks/useDebouncedSearch.ts';
import { formatCount } from '../../components/format.ts';
import { apiCaller } from '../../services/apiCaller.ts';
import { apiFindSimilarPetitions } from '../../../src-shared/api/visitor-calls.ts';
import { petitionPath } from '../../routes.ts';

export function SimilarPetitions({ title }: { title: string }) {
  // Failures are quiet: the list is a help, never in the creator's way.
  const items = useDebouncedSearch(title, SIMILAR_PETITIONS_DEBOUNCE_MS, (typed) =>
    typed.length >= TITLE_MIN ? apiFindSimilarPetitions(apiCaller, typed).then((found) => found.items) : null,
  );
  return (
    <div aria-live="polite">
      {items.length > 0 ? (
        <section className="similar-petitions" aria-labelledby="similar-petitions-heading">
          <h2 className="heading-s" id="similar-petitions-heading">
            {MODERATION_TEXTS.similarHeading}: {MODERATION_TEXTS.similarLead}
          </h2>
          <ul className="similar-petitions__list">
            {items.map((petition) => (
              <li key={petition.id}>
                <Link to={petitionPath(petition.id)}>{petition.title}</Link> ({formatCount(petition.signatures)}{' '}
                {petition.signatures === 1 ? 'signature' : 'signatures'})
              </li>
            ))}
          </ul>
          <p>{MODERATION_TEXTS.similarCarryOn}</p>
        </section>
      ) : null}
    </div>
  );
}
