/**
 * The Government Admin Panel on a petition's page, lazily loaded for staff only so citizens never download
 * it. Each part appears only when the user holds the right (docs/roles.md#permission-rules); the server
 * checks the same rights again on every call. Colleagues on the same petition are shown, and someone
 * writing the same answer is warned about (docs/console-team.md#presence).
 */
import { Link } from '../components/Link.tsx';
import type { Petition, PetitionDetail, User } from '../../src-shared/domain/schemas.ts';
import {
  canDeletePetition,
  canManageDebate,
  canManageGovernmentResponse,
  canManageTerms,
  canModerate,
} from '../../src-shared/rules/permissions.ts';
import { ModerationSection } from './moderation/ModerationSection.tsx';
import { claimWarning, presenceText } from '../../src-shared/rules/presence.ts';
import { SummarySlotProvider } from './lib/summarySlot.tsx';
import { STAFF_TEXTS } from './lib/texts.ts';
import { DebateSection } from './panel/DebateSection.tsx';
import { DeletePetitionSection } from './panel/DeletePetitionSection.tsx';
import { GovernmentResponseSection } from './panel/GovernmentResponseSection.tsx';
import { usePanelPresence } from './panel/usePanelPresence.ts';
import './staff.css';

export interface GovernmentAdminPanelProps {
  petition: PetitionDetail;
  user: User;
  /** A write succeeded (with the petition it returned) or the user asked to reload (no argument). */
  onChanged: (p?: Petition) => void;
  /**
   * The petition was deleted (the panel has already fired 'petitionsUpdated'): leave its page and
   * show SUCCESS.petitionDeleted ('Petition deleted successfully') where the user lands.
   */
  onDeleted: () => void;
}

export default function GovernmentAdminPanel(props: GovernmentAdminPanelProps) {
  const { user } = props;
  const response = canManageGovernmentResponse(user);
  const debate = canManageDebate(user);
  const remove = canDeletePetition(user);
  const terms = canManageTerms(user);
  const moderate = canModerate(user);
  if (!response && !debate && !remove && !terms && !moderate) return null;
  return <StaffPanel {...props} rights={{ response, debate, remove, terms, moderate }} />;
}

/** A second writer's warning above the form it concerns (a claim never blocks: docs/console-team.md#claims). */
function ClaimWarning({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="staff-claim-warning" role="status">
      {text}
    </p>
  );
}

function StaffPanel({
  petition,
  user,
  onChanged,
  onDeleted,
  rights,
}: GovernmentAdminPanelProps & { rights: { response: boolean; debate: boolean; remove: boolean; terms: boolean; moderate: boolean } }) {
  const { response, debate, remove, terms, moderate } = rights;
  const presence = usePanelPresence(petition.id, user);
  // A sent answer ends this tab's claim; so does anything else that changes the petition.
  const changed = (p?: Petition) => {
    presence.release();
    onChanged(p);
  };

  return (
    <SummarySlotProvider>
      <section className="staff-panel" aria-labelledby="staff-panel-title">
        <h2 className="heading-m staff-panel__title" id="staff-panel-title">
          {STAFF_TEXTS.panelTitle}
        </h2>
        {presence.others.length ? (
          <ul className="staff-presence" aria-label="Also on this petition">
            {presence.others.map((entry) => (
              <li key={entry.userId}>
                {presenceText(entry)} ({entry.role})
              </li>
            ))}
          </ul>
        ) : null}
        {response ? (
          <div onInput={() => presence.claim('responding')}>
            <ClaimWarning text={claimWarning(presence.others, 'responding')} />
            <GovernmentResponseSection petition={petition} user={user} onChanged={changed} />
          </div>
        ) : null}
        {debate ? (
          <div onInput={() => presence.claim('debating')}>
            <ClaimWarning text={claimWarning(presence.others, 'debating')} />
            <DebateSection petition={petition} user={user} onChanged={changed} />
          </div>
        ) : null}
        {moderate ? <ModerationSection petition={petition} user={user} onChanged={() => changed()} /> : null}
        {remove ? <DeletePetitionSection petition={petition} onChanged={changed} onDeleted={onDeleted} /> : null}
        {terms ? (
          <p className="staff-panel__terms">
            <Link className="link-strong" to="/term-management">
              {STAFF_TEXTS.manageTerms}
            </Link>
          </p>
        ) : null}
      </section>
    </SummarySlotProvider>
  );
}
