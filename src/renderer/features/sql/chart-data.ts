import type { AttributeValue } from '../../../shared/dynamo/attribute-value';

export type ChartKind = 'bar' | 'line';

export interface ChartSeries {
  name: string;
  /** Plotted positions only: the grid keeps the exact decimals. */
  values: (number | null)[];
}

export interface ChartData {
  labelColumn: string;
  labels: string[];
  series: ChartSeries[];
  /** What the data suggests: a line for dates or ordered numbers, bars for categories. */
  suggested: ChartKind;
}

/** At most this many categories and series are drawn; more would be unreadable. */
export const MAX_CATEGORIES = 60;
export const MAX_SERIES = 4;

function label(value: AttributeValue | null | undefined): string {
  if (!value || 'NULL' in value) return '(null)';
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('BOOL' in value) return String(value.BOOL);
  return JSON.stringify(value);
}

/**
 * The chart a grouped result suggests: the first non-numeric column labels the categories
 * (or the first column when all are numbers) and numeric columns become series.
 */
export function chartData(
  columns: string[],
  columnTypes: string[],
  rows: (AttributeValue | null)[][],
): ChartData | undefined {
  if (rows.length === 0 || columns.length < 2) return undefined;
  let labelIndex = columnTypes.findIndex((t) => t !== 'N');
  if (labelIndex < 0) labelIndex = 0;
  const seriesIndexes = columnTypes
    .map((t, j) => (t === 'N' && j !== labelIndex ? j : -1))
    .filter((j) => j >= 0)
    .slice(0, MAX_SERIES);
  if (seriesIndexes.length === 0) return undefined;
  const shown = rows.slice(0, MAX_CATEGORIES);
  const labels = shown.map((row) => label(row[labelIndex]));
  const series = seriesIndexes.map((j) => ({
    name: columns[j]!,
    values: shown.map((row) => {
      const v = row[j];
      return v && 'N' in v ? Number(v.N) : null;
    }),
  }));
  const isTime = labels.every((l) => /^\d{4}-\d{2}/.test(l));
  const isOrderedNumber = columnTypes[labelIndex] === 'N';
  return {
    labelColumn: columns[labelIndex]!,
    labels,
    series,
    suggested: isTime || isOrderedNumber ? 'line' : 'bar',
  };
}

/** Round tick steps (1, 2, 5 × 10^n) for an axis from 0 (or the minimum) to max. */
export function niceTicks(min: number, max: number, count = 5): number[] {
  const low = Math.min(0, min);
  const high = max <= low ? low + 1 : max;
  const raw = (high - low) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw;
  const ticks: number[] = [];
  for (let t = Math.floor(low / step) * step; t <= high + step * 0.5; t += step)
    ticks.push(Number(t.toPrecision(12)));
  return ticks;
}
