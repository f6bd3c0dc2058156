/**
 * What the creator and moderators read on a hidden or rejected petition (docs/moderation.md#states);
 * the public never receives such a petition. The tombstone is the public's page of a rejection.
 */
import type { PetitionDetail, PublicRejection } from '../../../src-shared/domain/schemas.ts';
import { MODERATION_TEXTS } from '../../../src-shared/domain/moderation-texts.ts';
import { formatLongDate } from '../../../src-shared/rules/dates.ts';
import { Notice } from '../../components/Notice.tsx';
import { ReturnHomeButton } from '../../components/ReturnHomeButton.tsx';
import { useDocumentTitle } from '../../hooks/useDocumentTitle.ts';
import { useSession } from '../../stores/index.ts';

export function ModerationNotice({ petition }: { petition: PetitionDetail }) {
  const isCreator = useSession((s) => s.user?.id === petition.creator_id);
  const moderation = petition.moderation;
  if (!moderation) return null;
  if (moderation.state === 'hidden') {
    return (
      <Notice tone="warning" title={MODERATION_TEXTS.hiddenNotice} headingLevel={2} className="moderation-notice">
        {isCreator ? <p>{MODERATION_TEXTS.hiddenNoticeDetail}</p> : <p>{MODERATION_TEXTS.hiddenStaffNotice}</p>}
        {moderation.note ? <p>Reason: {moderation.note}</p> : null}
      </Notice>
    );
  }
  return (
    <Notice tone="error" title={MODERATION_TEXTS.rejectedHeading} headingLevel={2} className="moderation-notice">
      {petition.rejection ? (
        <>
          <p>
            <strong>{petition.rejection.title}</strong>
          </p>
          <p>{petition.rejection.text}</p>
        </>
      ) : null}
      {isCreator ? <p>{MODERATION_TEXTS.rejectedCreatorDetail}</p> : null}
    </Notice>
  );
}

/** A rejected petition as the public sees it: the reason's public text, not the petition. */
export function RejectedPetitionPage({ rejection }: { rejection: PublicRejection | null }) {
  useDocumentTitle(MODERATION_TEXTS.rejectedHeading);
  return (
    <div className="error-screen tombstone">
      <h1 className="heading-xl">{MODERATION_TEXTS.rejectedHeading}</h1>
      {rejection ? (
        <>
          <h2 className="heading-m">{rejection.title}</h2>
          <p className="body-l">{rejection.text}</p>
          {rejection.at ? <p>Rejected on {formatLongDate(rejection.at)}</p> : null}
        </>
      ) : null}
      <ReturnHomeButton />
    </div>
  );
}
