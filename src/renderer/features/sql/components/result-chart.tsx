import { useEffect, useState } from 'react';
import type { SqlResultSummary } from '../../../../shared/ipc/sql';
import { call } from '../../../ipc/client';
import { type ChartData, chartData, type ChartKind, MAX_CATEGORIES, niceTicks } from '../chart-data';

const W = 640;
const H = 300;
const PAD = { left: 64, right: 16, top: 16, bottom: 72 };
const COLORS = Array.from({ length: 8 }, (_, k) => `var(--chart-${k + 1})`);

function short(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (abs >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (abs >= 1e4) return `${(n / 1e3).toFixed(0)}K`;
  return Number(n.toPrecision(4)).toString();
}

export interface ResultChartProps {
  summary: SqlResultSummary;
  kind?: ChartKind;
  onKind(kind: ChartKind): void;
}

/** A count next to a sum would be a flat line at the bottom: one measure at a time, switchable. */
function pickSeries(data: ChartData, name: string | undefined): ChartData {
  const measure = data.measures.find((m) => m === name) ?? data.measures.at(-1)!;
  return { ...data, series: data.series.filter((s) => s.measure === measure) };
}

/** A plain SVG chart of a grouped result: bars for categories, a line for dates and numbers. */
export function ResultChart({ summary, kind, onKind }: ResultChartProps) {
  const [full, setData] = useState<ChartData | undefined>();
  const [measureName, setMeasure] = useState<string | undefined>();
  useEffect(() => {
    let isCurrent = true;
    void call('sql:window', { resultId: summary.resultId, offset: 0, limit: MAX_CATEGORIES }).then(
      (result) => {
        if (isCurrent && result.ok)
          setData(chartData(summary.columns, summary.columnTypes, result.value.rows));
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [summary]);
  if (!full) return null;
  const data = pickSeries(full, measureName);
  const measure = data.series[0]?.measure ?? full.measures.at(-1)!;
  const chosen = kind ?? data.suggested;
  const all = data.series.flatMap((s) => s.values).filter((v): v is number => v !== null);
  const ticks = niceTicks(Math.min(0, ...all), Math.max(0, ...all));
  const low = ticks[0]!;
  const high = ticks.at(-1)!;
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + plotH - ((v - low) / (high - low || 1)) * plotH;
  const band = plotW / data.labels.length;
  const barW = Math.max(2, (band * 0.8) / data.series.length);
  const x = (i: number) => PAD.left + band * i + band / 2;
  const everyNth = Math.ceil(data.labels.length / 20);
  const description = `${chosen === 'bar' ? 'Bar' : 'Line'} chart of ${measure} by ${data.labelColumn}${data.splitColumn ? `, one ${chosen === 'bar' ? 'colour' : 'line'} per ${data.splitColumn}: ${data.series.map((s) => s.name).join(', ')}` : ''}`;
  return (
    <figure className="sql-chart" aria-label={description}>
      <div className="sql-chart-bar">
        <span className="sql-chart-title">
          {full.measures.length > 1 ? (
            <label>
              Value
              <select value={measure} onChange={(e) => setMeasure(e.target.value)}>
                {full.measures.map((m) => (
                  <option key={m}>{m}</option>
                ))}
              </select>
            </label>
          ) : (
            measure
          )}{' '}
          by {data.labelColumn}
          {data.splitColumn ? ` and ${data.splitColumn}` : ''}
        </span>
        <div className="sql-toggle" role="group" aria-label="Chart type">
          {(['bar', 'line'] as const).map((k) => (
            <button
              key={k}
              type="button"
              className={chosen === k ? 'is-active' : ''}
              aria-pressed={chosen === k}
              onClick={() => onKind(k)}
            >
              {k === 'bar' ? 'Bars' : 'Line'}
            </button>
          ))}
        </div>
      </div>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={description}
        className="sql-chart-svg"
        data-kind={chosen}
      >
        {ticks.map((t) => (
          <g key={t}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} className="sql-chart-grid" />
            <text
              x={PAD.left - 6}
              y={y(t)}
              className="sql-chart-tick"
              textAnchor="end"
              dominantBaseline="middle"
            >
              {short(t)}
            </text>
          </g>
        ))}
        {data.series.map((s, k) =>
          chosen === 'bar' ? (
            <g key={s.name} fill={COLORS[k]}>
              {s.values.map((v, i) =>
                v === null ? null : (
                  <rect
                    key={i}
                    className="sql-bar"
                    x={x(i) - (barW * data.series.length) / 2 + barW * k}
                    width={barW}
                    y={Math.min(y(v), y(0))}
                    height={Math.abs(y(0) - y(v))}
                  >
                    <title>{`${data.labels[i]}: ${s.name} ${v}`}</title>
                  </rect>
                ),
              )}
            </g>
          ) : (
            <polyline
              key={s.name}
              fill="none"
              stroke={COLORS[k]}
              strokeWidth={2}
              className="sql-line"
              points={s.values
                .map((v, i) => (v === null ? '' : `${x(i)},${y(v)}`))
                .filter(Boolean)
                .join(' ')}
            />
          ),
        )}
        {data.labels.map((l, i) =>
          i % everyNth === 0 ? (
            <text
              key={i}
              transform={`translate(${x(i)},${H - PAD.bottom + 10}) rotate(35)`}
              className="sql-chart-tick"
            >
              {l.length > 16 ? `${l.slice(0, 15)}…` : l}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption className="sql-chart-legend">
        {data.series.map((s, k) => (
          <span key={s.name}>
            <i style={{ background: COLORS[k] }} /> {s.name}
          </span>
        ))}
        {summary.total > MAX_CATEGORIES ? (
          <span className="sql-faint">
            First {MAX_CATEGORIES} of {summary.total.toLocaleString('en-US')} groups
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
