/** Who may call each community-safety route (rules in src-shared/rules/permissions.ts; docs/moderation.md#who-can-do-what). */
import { MODERATION_ERRORS } from '../../src-shared/rules/moderation.ts';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { canManageRejectionReasons, canModerate, canReport } from '../../src-shared/rules/permissions.ts';
import { permitted } from '../http/route-access.ts';

/** Members who may sign; bans and authorship are refused by the report itself (403 with their own texts). */
export const REPORTERS = permitted(canReport, MODERATION_ERRORS.reportForbidden);
/** The Leader of the House of Commons (rank 7), the Prime Minister and the administrator. */
export const MODERATORS = permitted(canModerate, MODERATION_ERRORS.moderationForbidden);
export const REJECTION_REASON_EDITORS = permitted(canManageRejectionReasons, ERRORS.adminOnly);
