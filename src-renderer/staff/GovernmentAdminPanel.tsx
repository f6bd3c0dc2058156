/**
 * The Government Admin Panel on a petition's page (§2), lazily loaded for staff only so citizens
 * never download it. Each part appears only when the user holds the right (§6); the server checks
 * the same rights again on every call.
 */
import { Link } from 'react-router-dom';
import type { Petition, PetitionDetail, User } from '../../src-shared/domain/schemas.ts';
import {
  canDeletePetition,
  canManageDebate,
  canManageGovernmentResponse,
  canManageTerms,
} from '../../src-shared/rules/permissions.ts';
import { SummarySlotProvider } from './lib/summarySlot.tsx';
import { STAFF_TEXTS } from './lib/texts.ts';
import { DebateSection } from './panel/DebateSection.tsx';
import { DeletePetitionSection } from './panel/DeletePetitionSection.tsx';
import { GovernmentResponseSection } from './panel/GovernmentResponseSection.tsx';
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

export default function GovernmentAdminPanel({ petition, user, onChanged, onDeleted }: GovernmentAdminPanelProps) {
  const response = canManageGovernmentResponse(user);
  const debate = canManageDebate(user);
  const remove = canDeletePetition(user);
  const terms = canManageTerms(user);
  if (!response && !debate && !remove && !terms) return null;

  return (
    <SummarySlotProvider>
      <section className="staff-panel" aria-labelledby="staff-panel-title">
        <h2 className="heading-m staff-panel__title" id="staff-panel-title">
          {STAFF_TEXTS.panelTitle}
        </h2>
        {response ? <GovernmentResponseSection petition={petition} user={user} onChanged={onChanged} /> : null}
        {debate ? <DebateSection petition={petition} user={user} onChanged={onChanged} /> : null}
        {remove ? <DeletePetitionSection petition={petition} onChanged={onChanged} onDeleted={onDeleted} /> : null}
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
