const byteUnits = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** 1536 → "1.5 KB". Decimal-free below 10 so small numbers do not look falsely precise. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < byteUnits.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1;
  return `${value.toFixed(digits)} ${byteUnits[unit]}`;
}

/** 1234567 → "1.2M"; counts under 10,000 are shown in full with separators. */
export function formatCount(count: number): string {
  if (!Number.isFinite(count)) return '—';
  if (count < 10_000) return count.toLocaleString('en-US');
  const units: [number, string][] = [
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, suffix] of units) {
    if (count >= size) {
      const value = count / size;
      return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)}${suffix}`;
    }
  }
  return String(count);
}

/** 1 → "1 item", 1234 → "1,234 items": a count with its noun, singular where it is one. */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? noun : plural}`;
}

/**
 * The one way a moment is shown: the user's locale, medium date and short time ("Dec 6, 2026,
 * 7:03 PM"); `seconds` where writes a moment apart must be told apart (History, Undo's report).
 */
export function formatDate(iso: string | undefined, options: { seconds?: boolean } = {}): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, {
    dateStyle: 'medium',
    timeStyle: options.seconds ? 'medium' : 'short',
  });
}

/** A moment's time of day alone, where the day is plain (a live stream's records): "7:03:11 PM". */
export function formatTime(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString(undefined, { timeStyle: 'medium' });
}

export function billingLabel(mode: 'PAY_PER_REQUEST' | 'PROVISIONED'): string {
  return mode === 'PAY_PER_REQUEST' ? 'On-demand' : 'Provisioned';
}
