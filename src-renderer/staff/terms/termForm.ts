/** Term form logic (docs/rules.md#term-form) and term display helpers, free of React so they are unit-tested. */
import type { TermStatus } from '../../../src-shared/domain/constants.ts';
import type { Term, TermChangePreview, TermRequest } from '../../../src-shared/domain/schemas.ts';
import { formatLongDate } from '../../../src-shared/rules/dates.ts';
import { termStatus } from '../../../src-shared/rules/terms.ts';

/** The select's value for "no stored status: follow the dates". */
export const AUTOMATIC = 'automatic';
export type TermStatusChoice = TermStatus | typeof AUTOMATIC;

/** New terms are created as upcoming (docs/rules.md#terms), so Upcoming comes first and is the default. */
export const TERM_STATUS_OPTIONS: ReadonlyArray<{ value: TermStatusChoice; label: string }> = [
  { value: 'upcoming', label: 'Upcoming' },
  { value: 'current', label: 'Current' },
  { value: 'completed', label: 'Completed' },
  { value: AUTOMATIC, label: 'Automatic (from dates)' },
];

export const TERM_STATUS_LABELS: Record<TermStatus, string> = {
  upcoming: 'Upcoming',
  current: 'Current',
  completed: 'Completed',
};

export interface TermFormDraft {
  name: string;
  startDate: string;
  endDate: string;
  status: TermStatusChoice;
}

export const EMPTY_TERM_DRAFT: TermFormDraft = { name: '', startDate: '', endDate: '', status: 'upcoming' };

export function termDraftFromTerm(term: Term): TermFormDraft {
  // `status` is the effective status; the choice edits the stored override (null: Automatic).
  return { name: term.name, startDate: term.startDate, endDate: term.endDate, status: term.statusOverride ?? AUTOMATIC };
}

export function termRequestFromDraft(draft: TermFormDraft): TermRequest {
  return {
    name: draft.name.trim(),
    startDate: draft.startDate,
    endDate: draft.endDate,
    status: draft.status === AUTOMATIC ? null : draft.status,
  };
}

export interface TermView {
  id: number;
  name: string;
  dates: string;
  status: TermStatus;
  statusLabel: string;
  /** Whether the status is stored or follows the dates. */
  automatic: boolean;
}

export function termView(term: Term, now: Date = new Date()): TermView {
  const status = termStatus(term, now);
  return {
    id: term.id,
    name: term.name,
    dates: `${formatLongDate(term.startDate)} to ${formatLongDate(term.endDate)}`,
    status,
    statusLabel: term.statusOverride ? TERM_STATUS_LABELS[status] : `${TERM_STATUS_LABELS[status]} (automatic)`,
    automatic: term.statusOverride === null,
  };
}

/** Newest terms first: the current and upcoming ones are what administrators look for. */
export function sortTerms(terms: readonly Term[]): Term[] {
  return [...terms].sort((a, b) => (a.startDate === b.startDate ? b.id - a.id : a.startDate < b.startDate ? 1 : -1));
}

/**
 * The control the form's single message (docs/rules.md#term-form) points at: the first missing field, else
 * the end date.
 */
export function termErrorField(draft: Pick<TermFormDraft, 'name' | 'startDate' | 'endDate'>): 'name' | 'startDate' | 'endDate' {
  if (!draft.name.trim()) return 'name';
  if (!draft.startDate) return 'startDate';
  return 'endDate';
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * What an edit will do to the term's petitions, from the server's preview; null when it does nothing
 * to them, so the edit needs no confirmation.
 */
export function termChangeWarning(preview: Pick<TermChangePreview, 'petitionsToClose' | 'petitionsToReopen'>): string | null {
  if (preview.petitionsToClose > 0) {
    return (
      `Completing this term will close ${count(preview.petitionsToClose, 'open petition')}. ` +
      'Nobody can sign them while they are closed; they reopen if the term becomes current again.'
    );
  }
  if (preview.petitionsToReopen > 0) {
    return `Making this term current again will reopen ${count(preview.petitionsToReopen, 'petition')} that closed when it was completed.`;
  }
  return null;
}

/** The delete dialog's question; `petitionsInTerm` is null while the server is being asked. */
export function deleteTermMessage(name: string, petitionsInTerm: number | null): string {
  const petitions =
    petitionsInTerm === null
      ? 'Checking its petitions...'
      : petitionsInTerm === 0
        ? 'It has no petitions.'
        : `${count(petitionsInTerm, 'petition')} will be left without a term.`;
  return `Are you sure you want to delete ${name}? ${petitions} This action cannot be undone.`;
}
