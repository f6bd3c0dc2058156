/**
 * Fixed development identities. Ids are stable so that seeded data, e2e tests and the
 * server's admin allow-list (DEV_ADMIN_USER_ID) can refer to them across restarts.
 */
export interface DevPersona {
  id: string;
  label: string;
  username: string;
  displayName: string;
  /** Rank in the citizen group; 0 means not a member. */
  citizenRank: number;
  /** Rank in the government group; 0 means not a member. */
  governmentRank: number;
  /**
   * Headshot location relative to the provider's apiBase (the port is only known at start),
   * or null to mimic Roblox users whose headshot is not generated or is moderated. Claims and
   * the thumbnails API always hand out the absolute URL.
   */
  picture: string | null;
  /** How old the ROBLOX account is, in days, whenever the provider starts (its `created_at` claim). */
  accountAgeDays: number;
  /** The `verified` claim. */
  verified: boolean;
}

export const DEV_ADMIN_USER_ID = '2000';
export const DEV_CITIZEN_GROUP_ID = '5550001';
export const DEV_GOVERNMENT_GROUP_ID = '5550002';

export const DEV_PERSONAS: readonly DevPersona[] = Object.freeze([
  { id: '2001', label: 'Citizen', username: 'DevCitizen', displayName: 'Casey Citizen', citizenRank: 1, governmentRank: 0, picture: '/headshots/2001.png', accountAgeDays: 412, verified: false },
  { id: '2002', label: 'Non-citizen', username: 'DevVisitor', displayName: 'Vic Visitor', citizenRank: 0, governmentRank: 0, picture: null, accountAgeDays: 3, verified: false },
  { id: '2006', label: 'Cabinet Minister', username: 'DevMinister', displayName: 'Morgan Minister', citizenRank: 1, governmentRank: 6, picture: '/headshots/2006.png', accountAgeDays: 1_130, verified: true },
  { id: '2007', label: 'Leader of the House of Commons', username: 'DevLeaderOfHouse', displayName: 'Lee Leader', citizenRank: 1, governmentRank: 7, picture: null, accountAgeDays: 1_904, verified: true },
  { id: '2008', label: 'Prime Minister', username: 'DevPrimeMinister', displayName: 'Pat Premier', citizenRank: 1, governmentRank: 8, picture: '/headshots/2008.png', accountAgeDays: 2_655, verified: true },
  { id: DEV_ADMIN_USER_ID, label: 'System Administrator', username: 'DevSysAdmin', displayName: 'Sam Sysadmin', citizenRank: 1, governmentRank: 0, picture: '/headshots/2000.png', accountAgeDays: 3_287, verified: true },
].map((p) => Object.freeze(p)));
