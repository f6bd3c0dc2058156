/**
 * The Government Admin Panel on a petition's page (docs/roles.md#permission-rules), with what follows a change
 * (the page's petition updated and read again) or the deletion (back to the list with the success notice). A staff
 * chunk of its own: a visitor's petition page carries none of it. The page draws its anchor and error boundary
 * around the chunk, so the link to the panel has a target and a chunk that fails to load shows as the panel's error.
 */
import { useCallback } from 'react';
import type { Petition, PetitionDetail, User } from '../../src-shared/domain/schemas.ts';
import { SITE_SUCCESS } from '../../src-shared/domain/site-messages.ts';
import { announcePetitionsUpdated, useFlash } from '../stores/index.ts';
import { useNavigate } from '../navigation.ts';
import GovernmentAdminPanel from './GovernmentAdminPanel.tsx';

export interface PetitionStaffSectionProps {
  petition: PetitionDetail;
  user: User;
  reload: () => void;
  update: (change: (p: PetitionDetail) => PetitionDetail) => void;
}

export default function PetitionStaffSection({ petition, user, reload, update }: PetitionStaffSectionProps) {
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
  return <GovernmentAdminPanel petition={petition} user={user} onChanged={onChanged} onDeleted={onDeleted} />;
}
