/**
 * The administrator's statistics of a term (docs/console-team.md#statistics), on the web
 * (/statistics) and in the console (its Statistics screen, read through its cache): totals, answer
 * times from the threshold, and per-day charts, each with its table.
 */
import { useState } from 'react';
import type { HandlingTimes, Statistics } from '../../../src-shared/domain/team-schemas.ts';
import { Notice } from '../../components/Notice.tsx';
import { useAsync } from '../../hooks/useAsync.ts';
import { api, errorDetail } from '../../services/api.ts';
import { DailyChart, shortDay } from './DailyChart.tsx';
import './statistics.css';

function daysText(value: number | null): string {
  if (value === null) return 'none answered yet';
  return `${value.toFixed(1)} ${value === 1 ? 'day' : 'days'}`;
}

function TimesFigures({ title, times, target }: { title: string; times: HandlingTimes; target: number }) {
  return (
    <div>
      <dt>{title}</dt>
      <dd>
        {times.medianDays === null ? 'none answered yet' : `median ${daysText(times.medianDays)}, 90th percentile ${daysText(times.p90Days)}`}
        <span className="statistics__detail">
          {times.handled} answered, {times.waiting} waiting now; target {target} days
        </span>
      </dd>
    </div>
  );
}

function Figures({ stats }: { stats: Statistics }) {
  return (
    <dl className="staff-stats statistics__figures">
      <div>
        <dt>Petitions created</dt>
        <dd>{stats.petitionsCreated}</dd>
      </div>
      <div>
        <dt>Signatures</dt>
        <dd>{stats.signatures}</dd>
      </div>
      <TimesFigures title="Time to a government response" times={stats.responseTimes} target={stats.targets.response.targetDays} />
      <TimesFigures title="Time to a debate outcome" times={stats.debateTimes} target={stats.targets.debate.targetDays} />
    </dl>
  );
}

function Charts({ stats }: { stats: Statistics }) {
  const days = stats.days.map((d) => d.day);
  const range = days.length ? `from ${shortDay(days[0]!)} to ${shortDay(days.at(-1)!)}` : '';
  const total = (key: 'petitionsCreated' | 'signatures') => stats.days.reduce((sum, d) => sum + d[key], 0);
  const peak = (key: 'responseBacklog' | 'debateBacklog') => Math.max(0, ...stats.days.map((d) => d[key]));
  const last = stats.days.at(-1);
  return (
    <>
      <DailyChart
        id="stats-created"
        title="Petitions created per day"
        kind="bars"
        days={days}
        series={[{ label: 'Petitions created', values: stats.days.map((d) => d.petitionsCreated) }]}
        summary={`Bar chart: ${total('petitionsCreated')} petitions created ${range}.`}
      />
      <DailyChart
        id="stats-signatures"
        title="Signatures per day"
        kind="bars"
        days={days}
        series={[{ label: 'Signatures', values: stats.days.map((d) => d.signatures) }]}
        summary={`Bar chart: ${total('signatures')} signatures ${range}.`}
      />
      <DailyChart
        id="stats-backlog"
        title="Backlog and overdue petitions at the end of each day"
        kind="lines"
        days={days}
        series={[
          { label: 'Awaiting a response', values: stats.days.map((d) => d.responseBacklog) },
          { label: 'Response overdue', values: stats.days.map((d) => d.responseOverdue) },
          { label: 'Awaiting a debate', values: stats.days.map((d) => d.debateBacklog) },
          { label: 'Debate overdue', values: stats.days.map((d) => d.debateOverdue) },
        ]}
        summary={
          last
            ? `Line chart ${range}: at most ${peak('responseBacklog')} petitions awaited a response and ${peak('debateBacklog')} a debate; ` +
              `on the last day ${last.responseBacklog} awaited a response (${last.responseOverdue} overdue) and ${last.debateBacklog} a debate (${last.debateOverdue} overdue).`
            : 'Line chart of the queues: no days yet.'
        }
      />
    </>
  );
}

export function StatisticsPanel() {
  const terms = useAsync(() => api.listTerms(), []);
  const [termId, setTermId] = useState<number | null>(null);
  const stats = useAsync(() => api.getStatistics(termId === null ? {} : { term: termId }), [termId]);
  const shown = stats.data;

  return (
    <section className="staff-card statistics" aria-labelledby="statistics-heading">
      <h2 className="heading-m" id="statistics-heading">
        {shown ? `Statistics: ${shown.term.name}` : 'Statistics'}
      </h2>
      <div className="field statistics__term">
        <label className="label" htmlFor="statistics-term">
          Term
        </label>
        <select
          id="statistics-term"
          className="select"
          value={termId ?? ''}
          onChange={(event) => setTermId(event.target.value ? Number(event.target.value) : null)}
        >
          <option value="">Current term</option>
          {(terms.data ?? []).map((term) => (
            <option key={term.id} value={term.id}>
              {term.name} ({term.startDate} to {term.endDate})
            </option>
          ))}
        </select>
      </div>
      {stats.status === 'error' ? (
        <Notice tone="error">
          <p>{errorDetail(stats.error, 'The statistics could not be loaded. Try again in a moment.')}</p>
        </Notice>
      ) : null}
      {stats.status === 'loading' && !shown ? <p role="status">Loading statistics...</p> : null}
      {shown ? (
        <>
          <p className="hint">
            Days {shown.from} to {shown.to} (UK time). Answer times run from the threshold (10 signatures for a response, 20 for a debate)
            to the response or the debate outcome.
          </p>
          <Figures stats={shown} />
          <Charts stats={shown} />
        </>
      ) : null}
    </section>
  );
}
