/** Texts of signing and removing a signature (docs/rules.md#signing), for the page's sign section and the member's part of it. */
export const SIGN_TEXT = {
  sign: 'Sign this petition',
  remove: 'Remove signature',
  signing: 'Signing...',
  removing: 'Removing signature...',
  login: 'Login to sign this petition',
  citizensOnly: 'Only British Citizens can sign petitions.',
  signed: 'You have signed this petition.',
  removed: 'Your signature has been removed.',
  loginFirst: 'Please log in to sign petitions',
} as const;
