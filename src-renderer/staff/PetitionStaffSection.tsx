/**
 * The Government Admin Panel's place on a petition's page (docs/roles.md#permission-rules): its anchor, its error
 * boundary, and what follows a change (the page's petition updated and read again) or the deletion (back to the
 * list with the success notice). A staff chunk of its own: a visitor's petition page carries none of it.
 */
import { useCallback } from 'react';
import type { Petition, PetitionDetail, User } from '../../src-shared/domain/schemas.ts';
import { SITE_SUCCESS } from '../../src-shared/domain/site-messages.ts';
import { announcePetitionsUpdated, useFlash } from '../stores/index.ts';
import { useNavigate } from '../navigation.ts';
import { ComponentErrorBoundary } from '../components/ErrorBoundary.tsx';
import GovernmentAdminPanel from './GovernmentAdminPanel.tsx';

export interface PetitionStaffSectionProps {
  /** The anchor the page's "Go to the Government Admin Panel" link points at. */
  id: string;
  petition: PetitionDetail;
  user: User;
  reload: () => void;
  update: (change: (p: PetitionDetail) => PetitionDetail) => void;
}

export default function PetitionStaffSection({ id, petition, user, reload, update }: PetitionStaffSectionProps) {
  const navigate = useNavigate();
  const onChanged = useCallback(
    (changed?: Petition) => {
      if (changed) update((p) => ({ ...p, ...changed }));
      reload();
    },
    [update, reload],
  );
  const onDeleted = useCallback(() => {
    useFlash.getState().push({ tone: 'success', text: SITE_SUCCESS.petitionDeleted, path: '/petitions' });
    announcePetitionsUpdated();
    navigate('/petitions');
  }, [navigate]);
  return (
    <div id={id} tabIndex={-1} className="focus-target">
      <ComponentErrorBoundary name="GovernmentAdminPanel">
        <GovernmentAdminPanel petition={petition} user={user} onChanged={onChanged} onDeleted={onDeleted} />
      </ComponentErrorBoundary>
    </div>
  );
}
