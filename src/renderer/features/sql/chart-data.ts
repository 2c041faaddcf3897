import type { AttributeValue } from '../../../shared/dynamo/attribute-value';

export type ChartKind = 'bar' | 'line';

export interface ChartSeries {
  name: string;
  /** The numeric column it plots (its own name, unless the result is split by a second column). */
  measure: string;
  /** Plotted positions only: the grid keeps the exact decimals. */
  values: (number | null)[];
}

export interface ChartData {
  labelColumn: string;
  labels: string[];
  series: ChartSeries[];
  /** Numeric columns that can be plotted, one at a time. */
  measures: string[];
  /** Grouped by two columns: the second one's values are the series. */
  splitColumn?: string;
  /** What the data suggests: a line for dates or ordered numbers, bars for categories. */
  suggested: ChartKind;
}

/** At most this many categories and series are drawn; more would be unreadable. */
export const MAX_CATEGORIES = 60;
export const MAX_SERIES = 4;
/** Values of a second grouping column drawn as their own series (the chart has this many colours). */
export const MAX_SPLIT_SERIES = 8;

function label(value: AttributeValue | null | undefined): string {
  if (!value || 'NULL' in value) return '(null)';
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('BOOL' in value) return String(value.BOOL);
  return JSON.stringify(value);
}

const numberOf = (v: AttributeValue | null | undefined): number | null =>
  v && 'N' in v ? Number(v.N) : null;

/**
 * The chart a grouped result suggests: the first non-numeric column labels the categories
 * (or the first column when all are numbers) and numeric columns become series. When a second
 * non-numeric column follows (GROUP BY month, status), each of its values is a series of its
 * own, so a line per status is drawn instead of one line zig-zagging between statuses.
 */
export function chartData(
  columns: string[],
  columnTypes: string[],
  rows: (AttributeValue | null)[][],
): ChartData | undefined {
  if (rows.length === 0 || columns.length < 2) return undefined;
  const textColumns = columnTypes.map((t, j) => (t === 'N' ? -1 : j)).filter((j) => j >= 0);
  const labelIndex = textColumns[0] ?? 0;
  const splitIndex = textColumns[1];
  const measureIndexes = columnTypes
    .map((t, j) => (t === 'N' && j !== labelIndex ? j : -1))
    .filter((j) => j >= 0)
    .slice(0, MAX_SERIES);
  if (measureIndexes.length === 0) return undefined;
  const shown = rows.slice(0, MAX_CATEGORIES);
  const measures = measureIndexes.map((j) => columns[j]!);
  let labels: string[];
  let series: ChartSeries[];
  if (splitIndex === undefined) {
    labels = shown.map((row) => label(row[labelIndex]));
    series = measureIndexes.map((j) => ({
      name: columns[j]!,
      measure: columns[j]!,
      values: shown.map((row) => numberOf(row[j])),
    }));
  } else {
    labels = [...new Set(shown.map((row) => label(row[labelIndex])))];
    const splits = [...new Set(shown.map((row) => label(row[splitIndex])))].slice(0, MAX_SPLIT_SERIES);
    const position = new Map(labels.map((l, i) => [l, i]));
    series = measureIndexes.flatMap((j) =>
      splits.map((split) => {
        const values = new Array<number | null>(labels.length).fill(null);
        for (const row of shown)
          if (label(row[splitIndex]) === split)
            values[position.get(label(row[labelIndex]))!] = numberOf(row[j]);
        return { name: split, measure: columns[j]!, values };
      }),
    );
  }
  const isTime = labels.every((l) => /^\d{4}-\d{2}/.test(l));
  const isOrderedNumber = columnTypes[labelIndex] === 'N';
  return {
    labelColumn: columns[labelIndex]!,
    labels,
    series,
    measures,
    splitColumn: splitIndex === undefined ? undefined : columns[splitIndex],
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
