/**
 * Which ministerial office a member may record a government response under. Most offices are open
 * to every rank that may respond (6 and up); an office a rank defines is offered only to that rank
 * and to the System Administrator: Prime Minister (rank 8) and Leader of the House of Commons
 * (rank 7). The server refuses anything else with 400 (docs/roles.md#offices-tied-to-a-rank); the
 * web panel and the console offer only what this allows.
 */
import {
  LEADER_OF_THE_HOUSE_RANK,
  MINISTERIAL_OFFICES,
  PRIME_MINISTER_RANK,
  ROLE_LABELS,
  type MinisterialOffice,
} from '../domain/constants.ts';
import { isAdministrator, type PermissionSubject } from './permissions.ts';
import { officeRank } from './roles.ts';

/** Offices only one rank holds, with that rank. */
export const RANK_OFFICES: Readonly<Partial<Record<MinisterialOffice, number>>> = {
  [ROLE_LABELS[PRIME_MINISTER_RANK]]: PRIME_MINISTER_RANK,
  [ROLE_LABELS[LEADER_OF_THE_HOUSE_RANK]]: LEADER_OF_THE_HOUSE_RANK,
};

type OfficeHolder = PermissionSubject | null | undefined;

/** The rank an office is tied to, or null when any responding rank may use it. */
export function officeTiedRank(office: string): number | null {
  return RANK_OFFICES[office as MinisterialOffice] ?? null;
}

export function mayUseOffice(user: OfficeHolder, office: string): boolean {
  if (!user || !(MINISTERIAL_OFFICES as readonly string[]).includes(office)) return false;
  const tied = officeTiedRank(office);
  return tied === null || isAdministrator(user) || officeRank(user.government_rank) === tied;
}

/** The offices the response form offers this member, in the list's order. */
export function officesFor(user: OfficeHolder): MinisterialOffice[] {
  return MINISTERIAL_OFFICES.filter((office) => mayUseOffice(user, office));
}

/** The office the member's rank defines (rank 8: Prime Minister, rank 7: Leader of the House), if any. */
export function rankOffice(user: OfficeHolder): MinisterialOffice | null {
  if (!user || isAdministrator(user)) return null;
  const rank = officeRank(user.government_rank);
  const found = Object.entries(RANK_OFFICES).find(([, tied]) => tied === rank);
  return found ? (found[0] as MinisterialOffice) : null;
}

/**
 * What the form starts with: the office this member chose last time if they may still use it,
 * else the one their rank defines, else nothing (they choose).
 */
export function preselectedOffice(user: OfficeHolder, lastChosen: string | null | undefined): MinisterialOffice | '' {
  if (lastChosen && mayUseOffice(user, lastChosen)) return lastChosen as MinisterialOffice;
  return rankOffice(user) ?? '';
}

/** The refusal for a tied office used by anyone else, or null when the member may use it. */
export function officeRefusal(user: OfficeHolder, office: string): string | null {
  const tied = officeTiedRank(office);
  if (tied === null || mayUseOffice(user, office)) return null;
  return `Only the ${office} (rank ${tied}) or the System Administrator can respond as ${office}. Choose your own office.`;
}
