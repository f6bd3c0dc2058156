/**
 * Signatures over time, as a small hand-drawn SVG step chart (no chart library: it keeps the
 * lazily loaded chunk tiny). Loaded with React.lazy from the detail page. The same numbers are
 * available as a table for screen-reader and keyboard users.
 */
import { useEffect, useState } from 'react';
import type { HourlySignatures } from '../../src-shared/domain/schemas.ts';
import { formatDateTime } from '../../src-shared/rules/dates.ts';
import { apiCaller } from '../services/apiCaller.ts';
import { apiGetSignaturesByHour } from '../../src-shared/api/visitor-calls.ts';

const WIDTH = 640;
const HEIGHT = 260;
const PAD = { top: 16, right: 20, bottom: 44, left: 56 };

export interface ChartPoint {
  time: number;
  total: number;
}

/** Hourly counts → cumulative totals, oldest first. */
export function cumulativePoints(points: HourlySignatures['points']): ChartPoint[] {
  const sorted = [...points]
    .map((p) => ({ time: new Date(p.hour).getTime(), count: p.count }))
    .filter((p) => Number.isFinite(p.time))
    .sort((a, b) => a.time - b.time);
  let total = 0;
  return sorted.map((p) => {
    total += p.count;
    return { time: p.time, total };
  });
}

export function niceMax(value: number): number {
  if (value <= 5) return 5;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (value <= step * magnitude) return step * magnitude;
  }
  return 10 * magnitude;
}

/** The SVG path of a step line through the points, scaled into the plot area. */
export function stepPath(points: readonly ChartPoint[], start: number, end: number, max: number): string {
  if (points.length === 0) return '';
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const span = Math.max(1, end - start);
  const x = (t: number) => PAD.left + ((t - start) / span) * plotW;
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  let d = `M${x(start).toFixed(1)},${y(0).toFixed(1)}`;
  let previous = 0;
  for (const p of points) {
    d += ` L${x(p.time).toFixed(1)},${y(previous).toFixed(1)} L${x(p.time).toFixed(1)},${y(p.total).toFixed(1)}`;
    previous = p.total;
  }
  d += ` L${x(end).toFixed(1)},${y(previous).toFixed(1)}`;
  return d;
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'Europe/London' });

export default function SignaturesChart({ petitionId, version }: { petitionId: number; version?: number }) {
  const [state, setState] = useState<{ status: 'loading' | 'ready' | 'error'; points: ChartPoint[] }>({
    status: 'loading',
    points: [],
  });

  useEffect(() => {
    let live = true;
    apiGetSignaturesByHour(apiCaller, petitionId).then(
      (data) => live && setState({ status: 'ready', points: cumulativePoints(data.points) }),
      () => live && setState((s) => ({ status: 'error', points: s.points })),
    );
    return () => {
      live = false;
    };
  }, [petitionId, version]);

  if (state.status === 'loading') return <p className="chart__placeholder">Loading chart...</p>;
  if (state.status === 'error') return <p className="chart__placeholder">The chart could not be loaded.</p>;
  const points = state.points;
  if (points.length === 0) return <p className="chart__placeholder">No signatures yet.</p>;

  const first = points[0]!;
  const last = points[points.length - 1]!;
  // One hour either side so a single point still draws a visible step.
  const start = first.time - 3_600_000;
  const end = Math.max(last.time + 3_600_000, Date.now());
  const max = niceMax(last.total);
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const ticks = [0, Math.round(max / 2), max];
  const total = last.total;

  return (
    <figure className="chart">
      <svg
        className="chart__svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`Line chart of signatures over time, rising to ${total} from ${formatDateTime(first.time)} to ${formatDateTime(last.time)}`}
      >
        {ticks.map((t) => {
          const y = PAD.top + plotH - (t / max) * plotH;
          return (
            <g key={t}>
              <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y} y2={y} className="chart__grid" />
              <text x={PAD.left - 8} y={y + 5} textAnchor="end" className="chart__label">
                {t}
              </text>
            </g>
          );
        })}
        <text x={PAD.left} y={HEIGHT - 14} className="chart__label">
          {dayFormat.format(start)}
        </text>
        <text x={WIDTH - PAD.right} y={HEIGHT - 14} textAnchor="end" className="chart__label">
          {dayFormat.format(end)}
        </text>
        <path d={stepPath(points, start, end, max)} className="chart__line" />
      </svg>
      <figcaption className="chart__caption">Total signatures, by hour (UK time)</figcaption>
      <details className="details">
        <summary>Show the numbers as a table</summary>
        <table className="table">
          <caption className="visually-hidden">Signatures by hour</caption>
          <thead>
            <tr>
              <th scope="col">Hour</th>
              <th scope="col">Total signatures</th>
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.time}>
                <td>{formatDateTime(p.time)}</td>
                <td>{p.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
