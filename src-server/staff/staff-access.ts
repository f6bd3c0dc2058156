/**
 * Who may call each staff route: a rule from src-shared/rules/permissions.ts with the text a caller
 * without it reads. A route names one of these in `config.access` and its handler takes the checked
 * viewer with `request.viewerFor(<the same one>)` (http/route-access.ts).
 */
import { ERRORS } from '../../src-shared/domain/messages.ts';
import {
  canDeletePetition,
  canManageBans,
  canManageDebate,
  canManageGovernmentResponse,
  canManageSignatureIntegrity,
  canManageTerms,
  canOverrideStatus,
  canReadAuditLog,
  canReadStatistics,
  canSeeGovernmentPanel,
  canToggleMaintenance,
  isAdministrator,
} from '../../src-shared/rules/permissions.ts';
import { permitted } from '../http/route-access.ts';

/** Staff who see the government panel (rank 6 up): the console's queues and bulk changes. */
export const PANEL_STAFF = permitted(canSeeGovernmentPanel, ERRORS.staffOnly);
/** The same people, told in the words of government responses: their own chat messages. */
export const CHAT_SENDERS = permitted(canSeeGovernmentPanel, ERRORS.responseForbidden);
export const RESPONSE_MANAGERS = permitted(canManageGovernmentResponse, ERRORS.responseForbidden);
export const DEBATE_MANAGERS = permitted(canManageDebate, ERRORS.debateForbidden);
export const PETITION_DELETERS = permitted(canDeletePetition, ERRORS.deleteForbidden);
export const TERM_MANAGERS = permitted(canManageTerms, ERRORS.adminOnly);
export const STATUS_OVERRIDERS = permitted(canOverrideStatus, ERRORS.adminOnly);
export const BAN_MANAGERS = permitted(canManageBans, ERRORS.adminOnly);
export const MAINTENANCE_TOGGLERS = permitted(canToggleMaintenance, ERRORS.adminOnly);
export const AUDIT_READERS = permitted(canReadAuditLog, ERRORS.adminOnly);
export const ADMINISTRATOR = permitted(isAdministrator, ERRORS.adminOnly);
/** Unusual signing, and invalidating or restoring signatures (docs/integrity.md). */
export const SIGNATURE_INTEGRITY = permitted(canManageSignatureIntegrity, ERRORS.integrityAdminOnly);
export const STATISTICS_READERS = permitted(canReadStatistics, ERRORS.statisticsForbidden);
