/** The last staff actions from the audit log, newest first. */
import { useAsync } from '../../hooks/useAsync.ts';
import { api } from '../../services/api.ts';
import { usePetitionsVersion } from '../../stores/index.ts';
import { Notice } from '../../components/Notice.tsx';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { auditLine } from './auditView.ts';

const RECENT_LIMIT = 15;

export function RecentActivity({ refreshKey }: { refreshKey: number }) {
  const version = usePetitionsVersion((s) => s.version);
  const log = useAsync(() => api.getAuditLog({ limit: RECENT_LIMIT }), [refreshKey, version]);
  const lines = (log.data?.items ?? []).map(auditLine);

  return (
    <section className="staff-card" aria-labelledby="activity-heading">
      <h2 className="heading-m" id="activity-heading">
        Recent Activity
      </h2>
      {log.status === 'error' ? (
        <Notice tone="error">
          <p>{STAFF_TEXTS.auditFailed}</p>
        </Notice>
      ) : null}
      {log.status === 'loading' && lines.length === 0 ? <p>Loading recent activity...</p> : null}
      {log.status === 'ready' && lines.length === 0 ? <p>No staff actions recorded yet.</p> : null}
      {lines.length > 0 ? (
        <ol className="activity-list">
          {lines.map((line) => (
            <li className="activity-list__item" key={line.id}>
              <span className="activity-list__what">{line.what}</span>
              <span className="activity-list__target"> · {line.target}</span>
              <span className="activity-list__meta">
                {line.who}, {line.when}
              </span>
            </li>
          ))}
        </ol>
      ) : null}
      <button type="button" className="button button--secondary" onClick={log.reload}>
        Refresh activity
      </button>
    </section>
  );
}
