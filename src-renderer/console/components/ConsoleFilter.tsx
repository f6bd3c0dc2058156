/** One labelled control in a console filter bar (queues, bulk override). */
import type { ReactNode } from 'react';

export function ConsoleFilter({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="console-filter">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}
