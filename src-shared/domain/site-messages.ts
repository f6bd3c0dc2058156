/**
 * The server's texts that the web app shows itself on its public pages (the maintenance and access
 * screens, sign-in, the limits of starting and signing petitions), apart from the rest: messages.ts
 * assembles ERRORS and SUCCESS from these and its own, so the web app's first download carries only
 * these (docs/operations.md#javascript-weight).
 */
export const SITE_ERRORS = {
  adminOnly: 'Access Denied: Only System Administrators can access term management.',
  maintenance: 'Site Under Maintenance',
  invalidAuthorizationCode: 'Invalid authorization code. Please try signing in again.',
  authenticationExpired: 'Authentication expired. Please try signing in again.',
  authenticationServerError: 'Server error during authentication. Please try again later.',
  noAuthorizationCode: 'No authorization code received',
  dailyLimit: 'Daily Limit Reached: You can only create three petitions per day. Please try again tomorrow.',
  notInSession: 'Cannot create petition: Parliament is not currently in session.',
  banned: 'You are banned from creating petitions',
  signUnauthorized: 'Unauthorized: Only British Citizens can sign petitions',
  termNotFound: 'Parliamentary term not found',
} as const;

export const SITE_SUCCESS = {
  petitionDeleted: 'Petition deleted successfully',
} as const;
