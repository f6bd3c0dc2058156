/**
 * Every permission rule (docs/roles.md#permission-rules) as a function of the user. The server enforces
 * these; clients mirror them.
 */
import { ADMINISTRATOR_RANK, CABINET_MINISTER_RANK, LEADER_OF_THE_HOUSE_RANK } from '../domain/core-constants.ts';
import { officeRank, roleLabel, type RoleLabelUser } from './roles.ts';

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

/** Unusual signing, and invalidating or restoring signatures (docs/integrity.md). */
export function canManageSignatureIntegrity(user: Viewer): boolean {
  return isAdministrator(user);
}

export function canReadAuditLog(user: Viewer): boolean {
  return isAdministrator(user);
}

// Community safety (docs/moderation.md#who-can-do-what). The same people as existing rules, named
// for what they allow here; aliases, so the web app's first download carries no extra code.
/** Reporting a petition: members who may sign; bans and authorship are checked by the server. */
export const canReport: (user: Viewer) => boolean = canSign;
/** Reporting this petition: a member who may report, unless they created it (docs/moderation.md#reporting). */
export function canReportPetition(user: (PermissionSubject & { id: string }) | null | undefined, petition: { creator_id: string | null }): boolean {
  return Boolean(user && canReport(user) && petition.creator_id !== user.id);
}
/** The moderation queue and its decisions: the Leader of the House of Commons (rank 7) and above. */
export const canModerate: (user: Viewer) => boolean = canManageDebate;
/** The list of rejection reasons is the administrator's to edit. */
export const canManageRejectionReasons: (user: Viewer) => boolean = isAdministrator;
/** The statistics of terms, queues and answer times (docs/console-team.md#statistics). */
export function canReadStatistics(user: Viewer): boolean {
  return isAdministrator(user);
}

/** While maintenance is on only the administrator passes (docs/rules.md#maintenance). */
export function bypassesMaintenance(user: Viewer): boolean {
  return isAdministrator(user);
}

/**
 * The role recorded with a debate submission: the office the header shows (Leader of the House of Commons,
 * Prime Minister, …, from roleLabel), so the debate box does not read 'Recorded by Government Official'.
 * Without rank facts: the userType, else 'Government Official'
 * (docs/roles.md#roles-recorded-with-contributions).
 */
export type DebateSubmitter = Partial<Omit<RoleLabelUser, 'userType'>> & { userType?: string | null };

export function debateSubmissionRole(user: DebateSubmitter | null | undefined): string {
  if (user && typeof user.rank === 'number' && typeof user.government_rank === 'number') {
    return roleLabel({ rank: user.rank, government_rank: user.government_rank, can_sign: Boolean(user.can_sign), userType: user.userType ?? '' }) || 'Government Official';
  }
  return user?.userType || 'Government Official';
}
