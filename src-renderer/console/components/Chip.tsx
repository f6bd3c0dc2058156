import type { OutboxChip } from '../queues.ts';

export function Chip({ chip }: { chip: OutboxChip }) {
  return <span className={`console-chip console-chip--${chip.tone}`}>{chip.label}</span>;
}
