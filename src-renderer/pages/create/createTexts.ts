/** The texts of the "Start a petition" page and its form (docs/rules.md#creating-a-petition), for both of their chunks. */
export const CREATE_TEXT = {
  heading: 'Start a petition',
  loadingForm: 'Loading the form...',
  accountRequiredTitle: 'Account Required:',
  accountRequired: 'Connect your ROBLOX account to start a petition.',
  permissionTitle: 'Permission Required:',
  permission: 'Only British Citizens in the UK Group can create petitions.',
  notInSessionTitle: 'Parliament Not In Session:',
  notInSession: 'New petitions cannot be created at this time.',
  notInSessionExplanation:
    'Petitions can only be created when Parliament is in session. Please check back when the next parliamentary term begins.',
  submit: 'Create petition',
  submitting: 'Creating petition...',
  success: 'Petition created successfully! You have automatically signed it. Redirecting to your petition...',
  failed: 'Failed to create petition',
  firstSigner: "When you create a petition, you'll be the first to automatically sign it.",
} as const;
