/**
 * What members and moderators read about community safety (docs/moderation.md), apart from the
 * refusals (MODERATION_ERRORS in src-shared/rules/moderation.ts). A module of texts alone, so the
 * petition page carries them without the rules.
 */
import { MODERATION_QUEUE_TITLE } from './moderation-constants.ts';

export const MODERATION_TEXTS = {
  reportButton: 'Report this petition',
  reportDialogTitle: 'Report this petition',
  reportQuestion: 'Why are you reporting this petition?',
  duplicateLabel: 'Which petition does it duplicate?',
  duplicateHint: 'Type words from its title, then choose it',
  detailsLabel: 'Tell us more (optional)',
  otherDetailsLabel: 'Tell us what is wrong',
  submitReport: 'Send report',
  thanksTitle: 'Thank you for your report',
  thanksNext:
    'Moderators will review this petition. If it breaks the rules they will hide or reject it. When several members report a petition it is hidden until a moderator has looked at it.',
  thanksPrivacy: 'The creator is not told who reported their petition.',
  alreadyReported: 'You have already reported this petition',
  hiddenNotice: 'This petition is hidden while moderators review it',
  hiddenNoticeDetail: 'Only you and the moderators can see it, and nobody can sign it until it is back.',
  hiddenStaffNotice: 'Hidden from the public',
  rejectedHeading: 'This petition was rejected',
  rejectedCreatorDetail: 'Only you and the moderators can see it.',
  similarHeading: 'Similar petitions',
  similarLead: 'Sign this one instead?',
  similarCarryOn: 'If none of these asks for the same thing, carry on with your petition.',
  queueTitle: MODERATION_QUEUE_TITLE,
  queueEmpty: 'Nothing to review. Reported and hidden petitions appear here.',
  rejectedEmpty: 'No rejected petitions.',
} as const;
