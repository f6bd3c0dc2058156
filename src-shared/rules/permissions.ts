/** Every permission of §6 as a function of the user. The server enforces these; clients mirror them. */
import {
  ADMINISTRATOR_RANK,
  CABINET_MINISTER_RANK,
  LEADER_OF_THE_HOUSE_RANK,
} from '../domain/constants.ts';
import { officeRank } from './roles.ts';

export interface PermissionSubject {
  rank: number;
  government_rank: number;
  can_sign: boolean;
}

type Viewer = PermissionSubject | null | undefined;

export function isAdministrator(user: Viewer): boolean {
  return user?.rank === ADMINISTRATOR_RANK;
}

function staffLevel(user: Viewer): number {
  if (!user) return 0;
  if (isAdministrator(user)) return ADMINISTRATOR_RANK;
  return officeRank(user.government_rank);
}

/** Signing and creating need citizenship (the citizen group); the administrator may do everything. */
export function canSign(user: Viewer): boolean {
  return Boolean(user && (user.can_sign || isAdministrator(user)));
}

export function canCreatePetition(user: Viewer): boolean {
  return canSign(user);
}

export function canSeeGovernmentPanel(user: Viewer): boolean {
  return staffLevel(user) >= CABINET_MINISTER_RANK;
}

export function canManageGovernmentResponse(user: Viewer): boolean {
  return staffLevel(user) >= CABINET_MINISTER_RANK;
}

export function canManageDebate(user: Viewer): boolean {
  return staffLevel(user) >= LEADER_OF_THE_HOUSE_RANK;
}

export function canDeletePetition(user: Viewer): boolean {
  return staffLevel(user) >= LEADER_OF_THE_HOUSE_RANK;
}

export function canManageTerms(user: Viewer): boolean {
  return isAdministrator(user);
}

export function canOverrideStatus(user: Viewer): boolean {
  return isAdministrator(user);
}

export function canManageBans(user: Viewer): boolean {
  return isAdministrator(user);
}

export function canToggleMaintenance(user: Viewer): boolean {
  return isAdministrator(user);
}

export function canReadAuditLog(user: Viewer): boolean {
  return isAdministrator(user);
}

/** While maintenance is on only the administrator passes (§4). */
export function bypassesMaintenance(user: Viewer): boolean {
  return isAdministrator(user);
}

/** The role recorded with a debate submission: the user's userType, else 'Government Official' (§6). */
export function debateSubmissionRole(user: { userType?: string | null } | null | undefined): string {
  return user?.userType || 'Government Official';
}
