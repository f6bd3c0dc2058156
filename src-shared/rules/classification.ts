/** Status classification, badge colours and the texts derived from a petition (docs/statuses.md#classification). */
import { DEBATE_THRESHOLD, LEGACY_DEBATE_TEXT_PREVIEW, RESPONSE_THRESHOLD } from '../domain/core-constants.ts';
import type { ClosureReason, DebateStatus, PetitionStatus } from '../domain/constants.ts';
import { CLOSURE_NOTICE } from '../domain/closure-messages.ts';
import { formatLongDate } from './dates.ts';

export interface ClassifiablePetition {
  status: string;
  signatures: number;
  governmentResponse: string | null;
  debateInfo: { status: DebateStatus; date?: string | null; notDebatedReason?: string | null } | null;
}

export function isAwaitingDebate(p: ClassifiablePetition): boolean {
  return p.status === 'awaiting_debate_in_parliament' || (p.signatures >= DEBATE_THRESHOLD && !p.debateInfo);
}

export function isDebated(p: ClassifiablePetition): boolean {
  return p.status === 'debated_in_parliament' || p.debateInfo?.status === 'debated';
}

export function isNotDebated(p: ClassifiablePetition): boolean {
  return (
    p.status === 'not_debated_in_parliament' ||
    p.debateInfo?.status === 'cancelled' ||
    p.debateInfo?.status === 'not_debated'
  );
}

export function hasGovernmentResponse(p: ClassifiablePetition): boolean {
  return Boolean(p.governmentResponse) || p.status === 'government_response';
}

export function isAwaitingResponse(p: ClassifiablePetition): boolean {
  return p.status === 'awaiting_government_response' || (p.signatures >= RESPONSE_THRESHOLD && !hasGovernmentResponse(p));
}

/**
 * The status the server stores after an event (signature, response, debate). Closed stays closed:
 * only the administrator reopens. The result always agrees with the derived classifications above.
 */
export function automaticStatus(p: ClassifiablePetition): PetitionStatus {
  if (p.status === 'closed') return 'closed';
  switch (p.debateInfo?.status) {
    case 'debated':
      return 'debated_in_parliament';
    case 'not_debated':
    case 'cancelled':
      return 'not_debated_in_parliament';
    case 'scheduled':
      return 'awaiting_debate_in_parliament';
    default:
      break;
  }
  if (p.signatures >= DEBATE_THRESHOLD) return 'awaiting_debate_in_parliament';
  if (p.governmentResponse) return 'government_response';
  if (p.signatures >= RESPONSE_THRESHOLD) return 'awaiting_government_response';
  return 'open';
}

export type BadgeColour = 'green' | 'red' | 'blue' | 'purple' | 'grey' | 'yellow';

export function badgeColour(status: string): BadgeColour {
  switch (status) {
    case 'open':
      return 'green';
    case 'closed':
      return 'red';
    case 'awaiting_government_response':
    case 'government_response':
      return 'blue';
    case 'awaiting_debate_in_parliament':
    case 'debated_in_parliament':
      return 'purple';
    case 'not_debated_in_parliament':
      return 'grey';
    default:
      return 'yellow';
  }
}

const STATUS_LABELS: Record<PetitionStatus, string> = {
  open: 'Open',
  closed: 'Closed',
  awaiting_government_response: 'Awaiting government response',
  government_response: 'Government responded',
  awaiting_debate_in_parliament: 'Awaiting debate',
  debated_in_parliament: 'Debated in Parliament',
  not_debated_in_parliament: 'Not debated',
};

/** Any status we do not know is displayed capitalised (docs/statuses.md#the-seven-statuses). */
export function statusLabel(status: string): string {
  const known = STATUS_LABELS[status as PetitionStatus];
  if (known) return known;
  const words = status.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function closureNotice(p: { closureReason: ClosureReason | null; signatures: number }): string {
  if (p.closureReason === 'three_weeks_insufficient_signatures') return CLOSURE_NOTICE.insufficientSignatures;
  if (p.closureReason === 'term_ended') return CLOSURE_NOTICE.termEnded;
  if (p.signatures < RESPONSE_THRESHOLD) return CLOSURE_NOTICE.insufficientSignatures;
  return CLOSURE_NOTICE.termEnded;
}

/**
 * The debate box's sentence (docs/statuses.md#debate-statuses). Legacy plain-text debate info is shortened to
 * 100 characters.
 */
export function debateBoxText(
  debateInfo: { status: DebateStatus; date?: string | null; notDebatedReason?: string | null } | string | null,
): string | null {
  if (!debateInfo) return null;
  if (typeof debateInfo === 'string') {
    return debateInfo.length > LEGACY_DEBATE_TEXT_PREVIEW
      ? `${debateInfo.slice(0, LEGACY_DEBATE_TEXT_PREVIEW)}...`
      : debateInfo;
  }
  const date = formatLongDate(debateInfo.date);
  switch (debateInfo.status) {
    case 'debated':
      return `This petition was debated on ${date}`;
    case 'scheduled':
      return `This petition is scheduled for debate on ${date}`;
    case 'cancelled': {
      // The reason typed when cancelling is kept with the debate, and shown.
      const cancelled = date ? `The debate scheduled for ${date} has been cancelled` : 'The scheduled debate has been cancelled';
      return debateInfo.notDebatedReason ? `${cancelled}: ${debateInfo.notDebatedReason}` : cancelled;
    }
    case 'not_debated':
      return debateInfo.notDebatedReason
        ? `This petition will not be debated in parliament. ${debateInfo.notDebatedReason}`
        : 'This petition will not be debated in parliament';
  }
}

export function milestoneNotices(signatures: number): string[] {
  const notices: string[] = [];
  if (signatures >= RESPONSE_THRESHOLD) notices.push('This petition has reached 10 signatures and will receive a government response.');
  if (signatures >= DEBATE_THRESHOLD) notices.push('This petition has reached 20 signatures and will be considered for debate in Parliament.');
  return notices;
}
