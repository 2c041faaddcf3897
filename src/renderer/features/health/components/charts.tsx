import { formatDate } from '../../../ui/format';

/**
 * Plain SVG charts for the Health tab (the project has no chart library; the SQL workbench's
 * result-chart draws its own too). Colours come from the theme's variables, so both themes read;
 * each chart carries its numbers as a table for screen readers, and the SVG is hidden from them.
 */
export interface BarRow {
  label: string;
  value: number;
  /** The value as the table and the bar's end say it (`38%`, `1.2 KB`). */
  text: string;
  tone?: 'accent' | 'warning' | 'danger';
}

export function BarChart({
  title,
  rows,
  columns,
}: {
  title: string;
  rows: BarRow[];
  columns: [string, string];
}) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  const height = rows.length * 22;
  return (
    <figure className="health-chart">
      <figcaption className="health-chart-title">{title}</figcaption>
      <svg className="health-bars" viewBox={`0 0 400 ${height}`} aria-hidden="true" focusable="false">
        {rows.map((row, i) => (
          <g key={row.label} transform={`translate(0 ${i * 22})`}>
            <text x="148" y="15" className="health-bar-label" textAnchor="end">
              {row.label.length > 22 ? `${row.label.slice(0, 21)}…` : row.label}
            </text>
            <rect x="154" y="4" width={200} height="14" className="health-bar-track" />
            <rect
              x="154"
              y="4"
              width={Math.max(row.value > 0 ? 1.5 : 0, (row.value / max) * 200)}
              height="14"
              className={`health-bar-fill health-tone-${row.tone ?? 'accent'}`}
            />
            <text x="358" y="15" className="health-bar-value">
              {row.text}
            </text>
          </g>
        ))}
      </svg>
      <NumbersTable caption={title} columns={columns} rows={rows.map((r) => [r.label, r.text])} />
    </figure>
  );
}

export type LineTone = 'accent' | 'success' | 'warning' | 'muted' | 'danger';

export interface LineSeries {
  name: string;
  points: { t: number; v: number }[];
  /** Colour, dash pattern and markers each tell the series apart, so no one of them has to. */
  tone: LineTone;
  /** An SVG stroke-dasharray; absent for a solid line. */
  dash?: string;
  /** Dots on the points above zero (throttled requests: rare, and each one matters). */
  hasMarkers?: boolean;
  /** A thinner line (provisioned capacity: a level, not a measurement). */
  isThin?: boolean;
}

function LegendSample({ s }: { s: LineSeries }) {
  return (
    <svg className="health-legend-sample" viewBox="0 0 28 10" aria-hidden="true" focusable="false">
      <line
        x1="1"
        y1="5"
        x2="27"
        y2="5"
        className={`health-line health-tone-${s.tone}${s.isThin ? ' health-line-thin' : ''}`}
        strokeDasharray={s.dash}
      />
      {s.hasMarkers ? (
        <circle cx="14" cy="5" r="2.5" className={`health-marker health-tone-${s.tone}`} />
      ) : null}
    </svg>
  );
}

export function LineChart({ title, series, unit }: { title: string; series: LineSeries[]; unit: string }) {
  const all = series.flatMap((s) => s.points);
  const t0 = Math.min(...all.map((p) => p.t));
  const t1 = Math.max(...all.map((p) => p.t));
  const max = Math.max(1, ...all.map((p) => p.v));
  const x = (t: number) => 40 + ((t - t0) / Math.max(1, t1 - t0)) * 350;
  const y = (v: number) => 110 - (v / max) * 100;
  const time = (t: number) => formatDate(new Date(t).toISOString());
  const times = [...new Set(all.map((p) => p.t))].sort((a, b) => a - b);
  return (
    <figure className="health-chart">
      <figcaption className="health-chart-title">{title}</figcaption>
      <svg className="health-lines" viewBox="0 0 400 130" aria-hidden="true" focusable="false">
        <line x1="40" y1="110" x2="390" y2="110" className="health-axis" />
        <line x1="40" y1="10" x2="40" y2="110" className="health-axis" />
        <text x="36" y="14" className="health-axis-text" textAnchor="end">
          {max.toLocaleString('en-US', { maximumFractionDigits: 1 })}
        </text>
        <text x="36" y="112" className="health-axis-text" textAnchor="end">
          0
        </text>
        {all.length > 0 ? (
          <>
            <text x="40" y="124" className="health-axis-text">
              {time(t0)}
            </text>
            <text x="390" y="124" className="health-axis-text" textAnchor="end">
              {time(t1)}
            </text>
          </>
        ) : null}
        {series.map((s) => (
          <g key={s.name}>
            <polyline
              className={`health-line health-tone-${s.tone}${s.isThin ? ' health-line-thin' : ''}`}
              strokeDasharray={s.dash}
              points={s.points.map((p) => `${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ')}
            />
            {s.hasMarkers
              ? s.points
                  .filter((p) => p.v > 0)
                  .map((p) => (
                    <circle
                      key={p.t}
                      cx={x(p.t).toFixed(1)}
                      cy={y(p.v).toFixed(1)}
                      r="2.5"
                      className={`health-marker health-tone-${s.tone}`}
                    />
                  ))
              : null}
          </g>
        ))}
      </svg>
      <ul className="health-legend" aria-hidden="true">
        {series.map((s) => (
          <li key={s.name}>
            <LegendSample s={s} />
            {s.name}
          </li>
        ))}
      </ul>
      <NumbersTable
        caption={`${title} (${unit} per period)`}
        columns={['Period', ...series.map((s) => s.name)]}
        rows={times.map((t) => [
          time(t),
          ...series.map((s) => String(s.points.find((p) => p.t === t)?.v ?? 0)),
        ])}
      />
    </figure>
  );
}

function NumbersTable({ caption, columns, rows }: { caption: string; columns: string[]; rows: string[][] }) {
  return (
    <table className="visually-hidden">
      <caption>{caption}</caption>
      <thead>
        <tr>
          {columns.map((c) => (
            <th key={c} scope="col">
              {c}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={i}>
            {row.map((cell, j) =>
              j === 0 ? (
                <th key={j} scope="row">
                  {cell}
                </th>
              ) : (
                <td key={j}>{cell}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
