/**
 * The results of a bulk action (status override or moderation): counts by result, a retry of the
 * failures, and one row per petition with what the server said.
 */
import type { ReactNode } from 'react';

export interface BulkResultRow {
  petition: { id: number; title: string };
  result: string;
  /** What the server said about this petition (a conflict's state, an error), or nothing. */
  detail: ReactNode;
}

export function BulkResults({
  id,
  title,
  countsTestId,
  counts,
  rows,
  failureCount,
  busy,
  onRetry,
}: {
  id: string;
  title: string;
  countsTestId: string;
  counts: Record<string, number>;
  rows: BulkResultRow[];
  failureCount: number;
  busy: boolean;
  onRetry: () => void;
}) {
  return (
    <section className="console-bulk__results" aria-labelledby={id}>
      <h2 className="heading-m" id={id}>
        Results: {title}
      </h2>
      <p role="status" data-testid={countsTestId}>
        {Object.entries(counts)
          .map(([result, n]) => `${n} ${result}`)
          .join(' · ')}
      </p>
      {failureCount ? (
        <button type="button" className="button console-small" disabled={busy} onClick={onRetry}>
          Retry {failureCount} {failureCount === 1 ? 'failure' : 'failures'}
        </button>
      ) : null}
      <table className="console-table">
        <caption className="visually-hidden">Result per petition</caption>
        <thead>
          <tr>
            <th scope="col">Petition</th>
            <th scope="col">Result</th>
            <th scope="col">Server</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ petition, result, detail }) => (
            <tr key={petition.id} data-result={result}>
              <td>
                #{petition.id} {petition.title}
              </td>
              <td>
                <span className={`console-result console-result--${result.replace(/\s/g, '-')}`}>{result}</span>
              </td>
              <td>{detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
