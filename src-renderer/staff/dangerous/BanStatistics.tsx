/** Ban statistics: total banned users and whether the ban service is available. */
import type { BanStats } from '../../../src-shared/domain/schemas.ts';
import { Notice } from '../../components/Notice.tsx';
import { STAFF_TEXTS } from '../lib/texts.ts';
import { banStatsView } from './bans.ts';

export function BanStatistics({
  stats,
  failed,
  onRefresh,
}: {
  stats: BanStats | null;
  failed: boolean;
  onRefresh: () => void;
}) {
  const view = stats ? banStatsView(stats) : null;
  return (
    <section className="staff-danger__item" aria-labelledby="ban-stats-heading">
      <h3 className="heading-s" id="ban-stats-heading">
        Ban Statistics
      </h3>
      {failed ? (
        <Notice tone="error">
          <p>{STAFF_TEXTS.banStatsFailed}</p>
        </Notice>
      ) : null}
      {view ? (
        <>
          <dl className="staff-stats">
            <div>
              <dt>Total banned users</dt>
              <dd>{view.total}</dd>
            </div>
            <div>
              <dt>Ban service</dt>
              <dd>{view.service}</dd>
            </div>
          </dl>
          {view.source ? <p className="hint">{view.source}</p> : null}
          {view.error ? (
            <Notice tone="warning">
              <p>{view.error}</p>
            </Notice>
          ) : null}
        </>
      ) : !failed ? (
        <p>Loading ban statistics...</p>
      ) : null}
      <button type="button" className="button button--secondary" onClick={onRefresh}>
        Refresh statistics
      </button>
    </section>
  );
}
