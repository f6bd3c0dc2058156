import type { Chip as ChipData } from '../queues.ts';

export function Chip({ chip }: { chip: ChipData }) {
  return <span className={`console-chip console-chip--${chip.tone}`}>{chip.label}</span>;
}
