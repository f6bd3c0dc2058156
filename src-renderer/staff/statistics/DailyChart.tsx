/**
 * A chart of figures per day, drawn as SVG like the petition page's signatures chart
 * (components/SignaturesChart.tsx, whose scale it shares) rather than with a chart library: a
 * handful of series over a few hundred days needs no more, and the administrator's chunk stays
 * small. Readable without colour: each series has its own line pattern and point shape, is named
 * at its last point and in a legend drawn with the same pattern, and every chart has its numbers
 * as a table.
 */
import { niceMax } from '../../components/SignaturesChart.tsx';

const WIDTH = 720;
const HEIGHT = 280;
const PAD = { top: 16, right: 150, bottom: 44, left: 56 };

export interface DailySeries {
  label: string;
  values: readonly number[];
}

/** Line patterns and point shapes, in series order: a series is told apart by its form, never by colour alone. */
const PATTERNS = ['', '8 5', '2 4', '12 4 2 4'];
const SHAPES = ['circle', 'square', 'triangle', 'diamond'] as const;

function Marker({ shape, x, y }: { shape: (typeof SHAPES)[number]; x: number; y: number }) {
  switch (shape) {
    case 'circle':
      return <circle cx={x} cy={y} r={3.5} className="daily-chart__point" />;
    case 'square':
      return <rect x={x - 3.5} y={y - 3.5} width={7} height={7} className="daily-chart__point" />;
    case 'triangle':
      return <path d={`M${x},${y - 4.5} L${x + 4.5},${y + 3.5} L${x - 4.5},${y + 3.5} Z`} className="daily-chart__point" />;
    case 'diamond':
      return <path d={`M${x},${y - 5} L${x + 5},${y} L${x},${y + 5} L${x - 5},${y} Z`} className="daily-chart__point" />;
  }
}

/** Moves end labels apart (at least `gap` apart, in their order on the chart) so equal values stay legible. */
export function spreadLabels(ys: readonly number[], gap: number): number[] {
  const order = ys.map((y, index) => ({ y, index })).sort((a, b) => a.y - b.y || a.index - b.index);
  const placed: number[] = [...ys];
  let previous = -Infinity;
  for (const item of order) {
    const y = Math.max(item.y, previous + gap);
    placed[item.index] = y;
    previous = y;
  }
  return placed;
}

const dayLabel = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
/** "3 Mar" from "2026-03-03" (a UK calendar day, printed as written). */
export function shortDay(day: string): string {
  return dayLabel.format(new Date(`${day}T00:00:00Z`));
}

export function DailyChart({
  id,
  title,
  days,
  series,
  kind,
  summary,
}: {
  id: string;
  title: string;
  /** The days of the x axis, YYYY-MM-DD. */
  days: readonly string[];
  series: readonly DailySeries[];
  /** Bars for one count per day, lines for figures that carry on from day to day. */
  kind: 'bars' | 'lines';
  /** What the chart shows in one sentence, for those who do not see it. */
  summary: string;
}) {
  if (days.length === 0) {
    return (
      <section className="daily-chart" aria-labelledby={`${id}-title`}>
        <h3 className="heading-s" id={`${id}-title`}>
          {title}
        </h3>
        <p className="chart__placeholder">No days to show yet: the term has not started.</p>
      </section>
    );
  }
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const max = niceMax(Math.max(1, ...series.flatMap((s) => s.values)));
  const step = plotW / days.length;
  const x = (index: number) => PAD.left + step * (index + 0.5);
  const y = (value: number) => PAD.top + plotH - (value / max) * plotH;
  const ticks = [0, max / 2, max];
  // Every few days a date under the axis, however long the term.
  const every = Math.max(1, Math.ceil(days.length / 8));
  const labelYs = spreadLabels(
    series.map((line) => y(line.values.at(-1) ?? 0) + 5),
    16,
  );

  return (
    <section className="daily-chart" aria-labelledby={`${id}-title`}>
      <h3 className="heading-s" id={`${id}-title`}>
        {title}
      </h3>
      <figure className="chart">
        <svg className="chart__svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary}>
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} className="chart__grid" />
              <text x={PAD.left - 8} y={y(tick) + 5} textAnchor="end" className="chart__label">
                {Number.isInteger(tick) ? tick : tick.toFixed(1)}
              </text>
            </g>
          ))}
          {days.map((day, index) =>
            index % every === 0 ? (
              <text key={day} x={x(index)} y={HEIGHT - 14} textAnchor="middle" className="chart__label">
                {shortDay(day)}
              </text>
            ) : null,
          )}
          {kind === 'bars'
            ? series[0]!.values.map((value, index) =>
                value > 0 ? (
                  <rect
                    key={days[index]}
                    x={x(index) - Math.max(1, step * 0.35)}
                    y={y(value)}
                    width={Math.max(2, step * 0.7)}
                    height={PAD.top + plotH - y(value)}
                    className="daily-chart__bar"
                  />
                ) : null,
              )
            : series.map((line, order) => {
                const path = line.values.map((value, index) => `${index === 0 ? 'M' : 'L'}${x(index).toFixed(1)},${y(value).toFixed(1)}`).join(' ');
                const last = line.values.length - 1;
                return (
                  <g key={line.label} className={`daily-chart__series daily-chart__series--${order}`}>
                    <path d={path} className="daily-chart__line" strokeDasharray={PATTERNS[order % PATTERNS.length] || undefined} />
                    {line.values.length <= 62
                      ? line.values.map((value, index) => <Marker key={days[index]} shape={SHAPES[order % SHAPES.length]!} x={x(index)} y={y(value)} />)
                      : null}
                    <text x={x(last) + 10} y={labelYs[order]} className="chart__label daily-chart__end">
                      {line.label}
                    </text>
                  </g>
                );
              })}
        </svg>
        {kind === 'lines' ? (
          <figcaption className="chart__caption">
            <ul className="daily-chart__legend">
              {series.map((line, order) => (
                <li key={line.label} className={`daily-chart__series--${order}`}>
                  <svg width="44" height="14" aria-hidden="true" focusable="false">
                    <line x1="2" x2="42" y1="7" y2="7" className="daily-chart__line" strokeDasharray={PATTERNS[order % PATTERNS.length] || undefined} />
                    <Marker shape={SHAPES[order % SHAPES.length]!} x={22} y={7} />
                  </svg>
                  {line.label}
                </li>
              ))}
            </ul>
          </figcaption>
        ) : (
          <figcaption className="chart__caption">{series[0]!.label}, per UK day</figcaption>
        )}
      </figure>
      <details className="details">
        <summary>Show the numbers as a table</summary>
        {/* Scrolls when long: focusable, so a keyboard can scroll it too. */}
        <div className="daily-chart__table" role="region" aria-label={`Numbers by day: ${title}`} tabIndex={0}>
          <table className="table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {series.map((line) => (
                  <th scope="col" key={line.label}>
                    {line.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, index) => (
                <tr key={day}>
                  <th scope="row">{day}</th>
                  {series.map((line) => (
                    <td key={line.label}>{line.values[index]}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
