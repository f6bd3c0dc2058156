/**
 * Staff texts of the web app alone. The texts every layer shares come from
 * src-shared/domain/messages.ts; these fill its gaps and are listed in one place so they can move
 * there if the server or the console needs them too.
 */
export const STAFF_TEXTS = {
  panelTitle: 'Government Admin Panel',
  manageTerms: 'Manage Parliamentary Terms',
  reloadPetition: 'Reload petition',
  reloadList: 'Reload petitions',

  // government response
  responseHeadingAdd: 'Add Government Response',
  responseHeadingEdit: 'Edit Government Response',
  responseLabel: 'Government response',
  responseRoleLabel: 'Your government role',
  responseRolePlaceholder: 'Select your government role',
  responseSubmitAdd: 'Submit Response',
  responseSubmitEdit: 'Update Response',
  responseRemove: 'Remove Response',
  responseRemoveTitle: 'Remove government response',
  responseRemoveConfirm: 'Are you sure you want to remove the government response? This action cannot be undone.',
  responseUpdated: 'Government response updated successfully!',
  responseRemoved: 'Government response removed successfully!',
  responseAddFailed: 'Failed to add government response. Please try again.',
  responseUpdateFailed: 'Failed to update government response. Please try again.',
  responseRemoveFailed: 'Failed to remove government response. Please try again.',

  // debate
  debateHeading: 'Manage Debate',
  debateOpen: 'Schedule Debate',
  debateOpenExisting: 'Update Debate',
  debateRemove: 'Remove Debate',
  debateRemoveTitle: 'Remove debate information',
  debateRemoveConfirm: 'Are you sure you want to remove the debate information? This action cannot be undone.',
  debateNone: 'No debate information has been added yet.',
  debateCancelledSaved: 'Debate cancellation submitted successfully!',
  debateNotDebatedSaved: 'Decision not to debate submitted successfully!',
  debateSaveFailed: 'Failed to save debate information. Please try again.',
  debateRemoveFailed: 'Failed to remove debate information. Please try again.',
  closeForm: 'Close form',

  // deletion
  deletePetition: 'Delete Petition',
  deletePetitionTitle: 'Delete petition',
  deletePetitionFailed: 'Failed to delete petition. Please try again.',

  // terms
  termCreated: 'Parliamentary term created successfully.',
  termUpdated: 'Parliamentary term updated successfully.',
  termDeleted: 'Parliamentary term deleted successfully.',
  termDeleteTitle: 'Delete parliamentary term',
  termChangeTitle: "Change the term's petitions?",
  termsLoadFailed: 'Failed to load parliamentary terms. Please try again.',
  petitionsLoadFailed: 'Failed to load petitions. Please try again.',

  // dangerous actions
  maintenanceOnTitle: 'Turn on maintenance mode',
  maintenanceOnConfirm:
    'Everyone except the System Administrator will see "Site Under Maintenance" until you turn it off. Continue?',
  maintenanceFailed: 'Failed to change maintenance mode. Please try again.',
  maintenanceReadFailed: 'Failed to read the maintenance state. Please try again.',
  banStatsFailed: 'Failed to load ban statistics. Please try again.',
  bansLoadFailed: 'Failed to load the ban list. Please try again.',
  banUserIdRequired: 'Please enter a ROBLOX user id (digits only)',
  banFailed: 'Failed to ban user. Please try again.',
  unbanFailed: 'Failed to unban user. Please try again.',
  unbanTitle: 'Unban user',
  deleteAllFailed: 'Failed to delete all petitions. Please try again.',
  deleteMemberDataFailed: "Failed to delete the member's data. Please try again.",
} as const;
