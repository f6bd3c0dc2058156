/**
 * Status badge of a petition (colours: docs/statuses.md#the-seven-statuses). Colours come from badgeColour();
 * the CSS classes `badge--green` … `badge--yellow` all reach at least 4.5:1 contrast. Usage: <StatusBadge
 * status={petition.status} />
 */
import { badgeColour, statusLabel } from '../../src-shared/rules/classification.ts';

export function StatusBadge({ status }: { status: string }) {
  return <strong className={`badge badge--${badgeColour(status)}`}>{statusLabel(status)}</strong>;
}
