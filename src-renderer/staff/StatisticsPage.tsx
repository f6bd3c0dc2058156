/**
 * Statistics (/statistics): the administrator's figures of a term (docs/console-team.md#statistics).
 * Lazily loaded for the administrator only; the server refuses the figures to anyone else.
 */
import { Link } from '../components/Link.tsx';
import { ERRORS } from '../../src-shared/domain/messages.ts';
import { APP_PATHS } from '../../src-shared/domain/app-paths.ts';
import { canReadStatistics } from '../../src-shared/rules/permissions.ts';
import { Loading } from '../components/Loading.tsx';
import { Notice } from '../components/Notice.tsx';
import { useDocumentTitle } from '../hooks/useDocumentTitle.ts';
import { useSession } from '../stores/index.ts';
import { StatisticsPanel } from './statistics/StatisticsPanel.tsx';
import './staff.css';

export const STATISTICS_TITLE = 'Statistics';

export default function StatisticsPage() {
  useDocumentTitle(STATISTICS_TITLE);
  const user = useSession((s) => s.user);
  const status = useSession((s) => s.status);
  return (
    <div className="staff-page">
      <h1 className="heading-xl">{STATISTICS_TITLE}</h1>
      {status === 'loading' ? (
        <Loading text="Checking your access..." />
      ) : !canReadStatistics(user) ? (
        <Notice tone="error" title="Access Denied" headingLevel={2}>
          <p>{ERRORS.statisticsForbidden}</p>
        </Notice>
      ) : (
        <>
          <p className="body-l">
            Petitions, signatures, how long answers took and how the queues stood, per parliamentary term.{' '}
            <Link className="link-strong" to={APP_PATHS.termManagement}>
              Term Management
            </Link>
          </p>
          <StatisticsPanel />
        </>
      )}
    </div>
  );
}
