/** Petition selection and bulk results for the Assign Petitions panel and the status override. */
import { ADMIN_DESCRIPTION_PREVIEW } from '../../../src-shared/domain/constants.ts';
import { VALIDATION } from '../../../src-shared/domain/messages.ts';
import { truncate } from '../../components/format.ts';
import { partialFailureText, plural } from '../lib/outcome.ts';
import type { Outcome } from '../lib/outcome.ts';

/** Admin lists cut descriptions at 150 characters with an ellipsis (docs/rules.md#limits). */
export function adminPreview(description: string): string {
  return truncate(description, ADMIN_DESCRIPTION_PREVIEW);
}

export function toggleSelection(selected: ReadonlySet<number>, id: number, on: boolean): Set<number> {
  const next = new Set(selected);
  if (on) next.add(id);
  else next.delete(id);
  return next;
}

export function assignmentError(termId: number | null, selected: ReadonlySet<number>): string | null {
  return termId === null || selected.size === 0 ? VALIDATION.assignNeedsTermAndPetition : null;
}

export interface AssignmentResult {
  id: number;
  ok: boolean;
  /** Refused because the petition changed since the list was loaded (412). */
  conflict?: boolean;
}

/** All done: a success naming the term; any failure: 'Failed to update N petition(s). Please try again.' */
export function assignmentOutcome(results: readonly AssignmentResult[], termName: string): Outcome {
  const failed = results.filter((r) => !r.ok).length;
  const done = results.length - failed;
  if (failed > 0) {
    return {
      tone: 'error',
      text: partialFailureText(failed),
      detail: done > 0 ? `${plural(done, 'petition')} assigned to ${termName}.` : null,
      conflict: results.some((r) => r.conflict),
    };
  }
  return { tone: 'success', text: `${plural(results.length, 'petition')} assigned to ${termName}.` };
}
