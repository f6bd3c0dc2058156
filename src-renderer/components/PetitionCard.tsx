/** One petition in a list: badge, title, description, response box, debate box, date, count, tags. */
import { Link } from './Link.tsx';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { debateBoxText } from '../../src-shared/rules/classification.ts';
import { formatLongDate } from '../../src-shared/rules/dates.ts';
import { StatusBadge } from './StatusBadge.tsx';
import { signaturesText, truncate } from './format.ts';
import { TagList } from './TagList.tsx';

const CARD_DESCRIPTION_MAX = 200;
const CARD_RESPONSE_MAX = 160;

export function PetitionCard({ petition, headingLevel = 3 }: { petition: Petition; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  const debate = debateBoxText(petition.debateInfo);
  return (
    <article className="card">
      <StatusBadge status={petition.status} />
      <Heading className="card__title">
        <Link to={`/petition/${petition.id}`}>{petition.title}</Link>
      </Heading>
      <p className="card__description">{truncate(petition.description, CARD_DESCRIPTION_MAX)}</p>
      {petition.governmentResponse ? (
        <div className="box box--response">
          <p className="box__title">Government responded</p>
          <p>{truncate(petition.governmentResponse, CARD_RESPONSE_MAX)}</p>
        </div>
      ) : null}
      {debate ? (
        <div className="box box--debate">
          <p className="box__title">Parliament debate</p>
          <p>{debate}</p>
        </div>
      ) : null}
      <dl className="card__meta">
        <div>
          <dt>Created</dt>
          <dd>{formatLongDate(petition.created)}</dd>
        </div>
        <div>
          <dt className="visually-hidden">Signatures</dt>
          <dd className="card__count">{signaturesText(petition.signatures)}</dd>
        </div>
      </dl>
      <TagList tags={petition.tags} />
    </article>
  );
}
