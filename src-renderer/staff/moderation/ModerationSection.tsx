/**
 * Moderation on a petition's page, in the Government Admin Panel (docs/moderation.md): moderators
 * see the petition's case (reports, creator, past moderation) and decide from here as from the queue.
 */
import { Link } from '../../components/Link.tsx';
import { APP_PATHS } from '../../../src-shared/domain/app-paths.ts';
import type { PetitionDetail, User } from '../../../src-shared/domain/schemas.ts';
import { MODERATION_TEXTS } from '../../../src-shared/domain/moderation-texts.ts';
import { Loading } from '../../components/Loading.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useAsync } from '../../hooks/useAsync.ts';
import { api } from '../../services/api.ts';
import { ModerationCaseCard } from './ModerationCaseCard.tsx';
import { MODERATION_SCREEN_TEXTS as T } from './moderationTexts.ts';

export function ModerationSection({ petition, user, onChanged }: { petition: PetitionDetail; user: User; onChanged: () => void }) {
  const found = useAsync(() => api.getModerationCase(petition.id), [petition.id, petition.version]);
  const reasons = useAsync(() => api.listRejectionReasons(), []);
  return (
    <section className="staff-section" aria-labelledby="moderation-section-heading">
      <h3 className="heading-s" id="moderation-section-heading">
        {MODERATION_TEXTS.queueTitle}
      </h3>
      <p>
        <Link className="link-strong" to={APP_PATHS.moderation}>
          Open the moderation queue
        </Link>
      </p>
      {found.status === 'error' ? (
        <Notice tone="error">
          <p>{T.loadFailed}</p>
        </Notice>
      ) : null}
      {!found.data && found.status === 'loading' ? <Loading /> : null}
      {found.data ? (
        <ModerationCaseCard
          item={found.data}
          reasons={reasons.data ?? []}
          user={user}
          headingLevel={3}
          onChanged={() => {
            found.reload();
            onChanged();
          }}
        />
      ) : null}
    </section>
  );
}
