/** How outbox rows read in the panel and the conflict card: plain functions, unit-tested. */
import type { OutboxEntry, OutboxState } from '../../src-shared/console/outbox.ts';
import { waitsForBackend } from '../../src-shared/console/backend-availability.ts';
import type { StaffAction } from '../../src-shared/console/staff-actions.ts';
import type { Petition } from '../../src-shared/domain/schemas.ts';
import { debateBoxText, statusLabel } from '../../src-shared/rules/classification.ts';
import { isAttention } from './queues.ts';
import { decisionOutcome } from '../../src-shared/rules/moderation.ts';
import { requestOf } from './moderation.ts';

/** Where a petition stands for moderation, in words (docs/moderation.md#states). */
export function moderationStateText(petition: Petition): string {
  const moderation = petition.moderation;
  if (!moderation) return `Visible on the site · ${statusLabel(petition.status)}`;
  if (moderation.state === 'hidden') {
    return moderation.note ? `Hidden by a moderator: “${moderation.note}”` : 'Hidden by members’ reports, waiting for a moderator';
  }
  return `Rejected (reason: ${moderation.reasonCode ?? 'unknown'})`;
}

function isModeration(action: StaffAction): boolean {
  return action.kind.startsWith('moderation.');
}

export const STATE_LABELS: Record<OutboxState, string> = {
  pending: 'Queued',
  sending: 'Sending…',
  retry_wait: 'Waiting to retry',
  blocked_auth: 'Waiting for sign-in',
  applied: 'Applied',
  conflict: 'Conflict',
  rejected: 'Rejected',
  failed: 'Failed',
  cancelled: 'Discarded',
};

/**
 * The state as the panel says it: a row that waits for the backend (it was not there) is sent as
 * soon as the console finds it back, not at a time of its own.
 */
export function stateText(
  entry: Pick<OutboxEntry, 'state' | 'lastStatus' | 'lastError' | 'nextAttemptAt'>,
  formatTime: (iso: string) => string,
  online = true,
): string {
  const waiting = 'Waiting for the server (sent as soon as it answers)';
  // Offline, nothing is sent: a queued row goes when the backend answers again.
  if (entry.state === 'pending' && !online) return waiting;
  if (entry.state !== 'retry_wait') return STATE_LABELS[entry.state];
  if (waitsForBackend(entry.lastStatus, entry.lastError)) return waiting;
  return entry.nextAttemptAt ? `${STATE_LABELS.retry_wait}, next try ${formatTime(entry.nextAttemptAt)}` : STATE_LABELS.retry_wait;
}

export type OutboxGroup = 'attention' | 'active' | 'done';

export function outboxGroup(state: OutboxState): OutboxGroup {
  if (isAttention(state)) return 'attention';
  if (state === 'applied' || state === 'cancelled') return 'done';
  return 'active';
}

export function petitionIdOf(action: StaffAction): number | null {
  return 'petitionId' in action ? action.petitionId : null;
}

export interface ConflictSide {
  heading: string;
  who: string | null;
  role: string | null;
  when: string | null;
  text: string;
}

/** What the server holds now for the part of the petition this action touches. */
export function serverSide(action: StaffAction, server: Petition | null): ConflictSide {
  if (!server) return { heading: 'On the server now', who: null, role: null, when: null, text: 'The petition no longer exists.' };
  if (action.kind === 'response.save' || action.kind === 'response.remove') {
    const meta = server.governmentResponseMeta;
    return {
      heading: 'On the server now',
      who: meta ? (meta.editedBy ?? meta.addedBy) : null,
      role: meta ? (meta.editedByRole ?? meta.addedByRole) : null,
      when: meta ? (meta.editedAt ?? meta.addedAt) : null,
      text: server.governmentResponse ?? 'No government response.',
    };
  }
  if (action.kind === 'debate.save' || action.kind === 'debate.remove') {
    const meta = server.debateInfoMeta;
    return {
      heading: 'On the server now',
      who: meta ? (meta.editedBy ?? meta.addedBy) : null,
      role: meta ? (meta.editedByRole ?? meta.addedByRole) : null,
      when: meta ? (meta.editedAt ?? meta.addedAt) : null,
      text: debateBoxText(server.debateInfo) ?? 'No debate information.',
    };
  }
  if (isModeration(action)) {
    return { heading: 'On the server now', who: null, role: null, when: server.moderation?.at ?? null, text: moderationStateText(server) };
  }
  return { heading: 'On the server now', who: null, role: null, when: null, text: `Status: ${statusLabel(server.status)}` };
}

/** The user's own queued version of the same part. */
export function draftSide(entry: OutboxEntry): ConflictSide {
  const { action } = entry;
  const base = { heading: 'Your draft', who: 'You', when: entry.createdAt };
  switch (action.kind) {
    case 'response.save':
      return { ...base, role: action.body.added_by_role, text: action.body.response_text };
    case 'response.remove':
      return { ...base, role: null, text: 'Remove the government response.' };
    case 'debate.save':
      return {
        ...base,
        role: action.body.added_by_role ?? null,
        text:
          debateBoxText({
            status: action.body.status,
            date: action.body.date ?? null,
            notDebatedReason: action.body.not_debated_reason ?? null,
          }) ?? '',
      };
    case 'debate.remove':
      return { ...base, role: null, text: 'Remove the debate information.' };
    case 'petition.setStatus':
      return { ...base, role: null, text: `Status: ${statusLabel(action.status)}` };
    case 'moderation.keep':
      return { ...base, role: null, text: 'Keep the petition and settle its reports.' };
    case 'moderation.hide':
      return { ...base, role: null, text: `Hide the petition: “${action.reason}”` };
    case 'moderation.reject':
      return { ...base, role: null, text: `Reject the petition (reason: ${action.reasonCode})` };
    case 'moderation.restore':
      return { ...base, role: null, text: 'Restore the petition.' };
    default:
      return { ...base, role: null, text: entry.summary };
  }
}

/** The text "Copy my text" puts on the clipboard: what the user wrote, not a description of it. */
export function copyableText(action: StaffAction): string | null {
  if (action.kind === 'response.save') return action.body.response_text;
  if (action.kind === 'debate.save') {
    return [action.body.not_debated_reason, action.body.hansard_url].filter(Boolean).join('\n') || null;
  }
  return null;
}

/**
 * The same intent again, based on the version the server holds now (a new outbox row, new key);
 * none for a moderation decision the petition's state now refuses (keeping or hiding a rejected one).
 */
export function resubmission(action: StaffAction, server: Petition): StaffAction | null {
  if (!('petitionId' in action)) return null;
  const request = requestOf(action);
  if (request) {
    const subject = { state: server.moderation?.state ?? null, openReports: 1, rejectionCode: server.moderation?.reasonCode ?? null };
    if (decisionOutcome(subject, request).kind === 'refused') return null;
  }
  return { ...action, baseVersion: server.version };
}

/** "Minister Y already responded to petition #12 at 14:02" — the card's heading. */
export function conflictHeadline(entry: OutboxEntry): string {
  const server = entry.serverPetition;
  const id = petitionIdOf(entry.action);
  const side = serverSide(entry.action, server);
  if (!server) return `Petition #${id} was deleted before your action arrived`;
  if (isModeration(entry.action)) return `Another moderator decided about petition #${id} before your decision arrived`;
  const what =
    entry.action.kind.startsWith('response') ? 'changed the government response of' : entry.action.kind.startsWith('debate') ? 'changed the debate of' : 'changed';
  return `${side.who ?? 'Someone'} ${what} petition #${id} before your action arrived`;
}
