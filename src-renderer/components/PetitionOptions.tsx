/**
 * The <option> lists of the petition selects, so the web list filters, the staff status override
 * and the console (queues, bulk override) offer the same choices with the same wording.
 */
import { PETITION_STATUSES, STATUS_FILTERS, TAGS } from '../../src-shared/domain/constants.ts';
import type { Term } from '../../src-shared/domain/schemas.ts';
import { statusLabel } from '../../src-shared/rules/classification.ts';

/** The list filter's choices ('All petitions', 'Open', …). */
export function StatusFilterOptions() {
  return STATUS_FILTERS.map((f) => (
    <option key={f.value} value={f.value}>
      {f.label}
    </option>
  ));
}

/** 'All tags' (value '') then every tag. */
export function TagOptions() {
  return (
    <>
      <option value="">All tags</option>
      {TAGS.map((tag) => (
        <option key={tag} value={tag}>
          {tag}
        </option>
      ))}
    </>
  );
}

/** The terms by name, valued by id. */
export function TermOptions({ terms }: { terms: readonly Term[] }) {
  return terms.map((t) => (
    <option key={t.id} value={String(t.id)}>
      {t.name}
    </option>
  ));
}

/** 'Select a status' (value '') then every status a staff member may set, by its label. */
export function PetitionStatusOptions() {
  return (
    <>
      <option value="">Select a status</option>
      {PETITION_STATUSES.map((s) => (
        <option key={s} value={s}>
          {statusLabel(s)}
        </option>
      ))}
    </>
  );
}
