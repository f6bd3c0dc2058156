/**
 * The government response box, the debate box and the closed notice of a petition
 * (docs/statuses.md#closure-reasons, docs/statuses.md#debate-statuses).
 */
import type { ContributionMeta, Petition } from '../../../src-shared/domain/schemas.ts';
import { CLOSURE_NOTICE } from '../../../src-shared/domain/closure-messages.ts';
import { closureNotice, debateBoxText } from '../../../src-shared/rules/classification.ts';
import { formatLongDate } from '../../../src-shared/rules/dates.ts';
import { Notice } from '../../components/Notice.tsx';

function metaLine(verb: string, meta: ContributionMeta | null): string | null {
  if (!meta) return null;
  let text = `${verb} by ${meta.addedByRole || meta.addedBy} on ${formatLongDate(meta.addedAt)}`;
  if (meta.editedAt) text += `. Updated by ${meta.editedByRole || meta.editedBy || 'the Government'} on ${formatLongDate(meta.editedAt)}`;
  return text;
}

/** Only web addresses become links, so a stored value can never run script. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

export function ClosedNotice({ petition }: { petition: Petition }) {
  if (petition.status !== 'closed') return null;
  return (
    <Notice tone="error" title={CLOSURE_NOTICE.heading} headingLevel={2} className="closed-notice">
      <p>{closureNotice(petition)}</p>
    </Notice>
  );
}

export function GovernmentResponseBox({ petition }: { petition: Petition }) {
  if (!petition.governmentResponse) return null;
  const meta = metaLine('Responded', petition.governmentResponseMeta);
  return (
    <section className="box box--response" aria-labelledby="response-heading">
      <h2 className="heading-m" id="response-heading">
        Government response
      </h2>
      {meta ? <p className="box__meta">{meta}</p> : null}
      <p className="pre-line">{petition.governmentResponse}</p>
    </section>
  );
}

export function DebateBox({ petition }: { petition: Petition }) {
  const info = petition.debateInfo;
  const text = debateBoxText(info);
  if (!info || !text) return null;
  const hansard = safeHttpUrl(info.hansardLink);
  const meta = metaLine('Recorded', petition.debateInfoMeta);
  return (
    <section className="box box--debate" aria-labelledby="debate-heading">
      <h2 className="heading-m" id="debate-heading">
        Parliament debate
      </h2>
      <p>{text}</p>
      {info.location && (info.status === 'scheduled' || info.status === 'debated') ? (
        <p>Location: {info.location}</p>
      ) : null}
      {meta ? <p className="box__meta">{meta}</p> : null}
      {hansard ? (
        <p>
          <a className="button button--secondary" href={hansard} target="_blank" rel="noopener noreferrer">
            Read the Hansard transcript<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
        </p>
      ) : null}
    </section>
  );
}
