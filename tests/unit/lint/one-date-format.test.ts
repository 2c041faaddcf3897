import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDate, formatTime } from '../../../src/renderer/ui/format';

const root = path.resolve(__dirname, '../../../src/renderer');
const FORMAT_FILE = path.join(root, 'ui', 'format.ts');

/** Ways of turning a moment into words other than ui/format.ts's: each gave the app another format. */
const OTHER_FORMATS = [
  /toLocaleDateString\(/,
  /toLocaleTimeString\(/,
  /dateStyle|timeStyle/,
  /new Date\([^)]*\)\.toLocaleString\(/,
  /\.toLocaleString\(\)/,
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('one date format in the renderer', () => {
  it('shows every moment through ui/format.ts (formatDate, formatTime)', () => {
    const offenders = sources(root)
      .filter((file) => file !== FORMAT_FILE)
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) =>
            OTHER_FORMATS.some((pattern) => pattern.test(line))
              ? [`${path.relative(root, file)}:${i + 1}: ${line.trim()}`]
              : [],
          ),
      );
    expect(offenders).toEqual([]);
  });

  it('writes a moment with its date and time, seconds only when asked, and leaves what is not a date as it was', () => {
    const at = '2026-12-06T19:03:11.000Z';
    const expected = new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    expect(formatDate(at)).toBe(expected);
    expect(formatDate(at, { seconds: true })).toBe(
      new Date(at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }),
    );
    expect(formatDate(at, { seconds: true })).not.toBe(expected);
    expect(formatDate('not a date')).toBe('not a date');
    expect(formatDate(undefined)).toBe('—');
    expect(formatTime(at)).toBe(new Date(at).toLocaleTimeString(undefined, { timeStyle: 'medium' }));
  });
});
