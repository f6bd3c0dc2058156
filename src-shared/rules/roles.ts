/** Who a user is, from their group ranks (docs/roles.md#roles). The server computes it; every client only reads it. */
import { ADMINISTRATOR_RANK, CABINET_MINISTER_RANK, PRIME_MINISTER_RANK, ROLE_LABELS, USER_TYPES } from '../domain/core-constants.ts';

export interface RankFacts {
  isAdministrator: boolean;
  citizenRank: number;
  governmentRank: number;
}

/**
 * Only ranks 6, 7 and 8 of the government group are offices. Lower ranks are ordinary members,
 * and group owner/admin ranks (e.g. 254, 255) carry no office: the administrator is a fixed account.
 */
export function officeRank(governmentRank: number): 0 | 6 | 7 | 8 {
  return governmentRank >= CABINET_MINISTER_RANK && governmentRank <= PRIME_MINISTER_RANK
    ? (governmentRank as 6 | 7 | 8)
    : 0;
}

export function deriveRoleFields(facts: RankFacts): { rank: number; userType: string; can_sign: boolean } {
  const citizen = facts.citizenRank >= 1;
  if (facts.isAdministrator) {
    return { rank: ADMINISTRATOR_RANK, userType: USER_TYPES.administrator, can_sign: true };
  }
  const office = officeRank(facts.governmentRank);
  if (office) return { rank: office, userType: USER_TYPES.government, can_sign: citizen };
  return { rank: citizen ? 1 : 0, userType: citizen ? USER_TYPES.citizen : USER_TYPES.guest, can_sign: citizen };
}

export interface RoleLabelUser {
  rank: number;
  government_rank: number;
  can_sign: boolean;
  userType: string;
}

export function roleLabel(user: RoleLabelUser): string {
  const office = officeRank(user.government_rank);
  if (user.rank === ADMINISTRATOR_RANK) return ROLE_LABELS.administrator;
  if (office) return ROLE_LABELS[office];
  if (user.can_sign) return ROLE_LABELS.citizen;
  return user.userType;
}
