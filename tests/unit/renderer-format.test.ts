import { describe, expect, it } from 'vitest';
import { textColorOn } from '../../src/renderer/ui/color';
import { countOf, formatBytes, formatCount } from '../../src/renderer/ui/format';

describe('human units in the table list', () => {
  it('formats sizes in binary units without false precision', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(52 * 1024 * 1024)).toBe('52 MB');
    expect(formatBytes(3.25 * 1024 ** 4)).toBe('3.3 TB');
    expect(formatBytes(-1)).toBe('—');
  });

  it('says "1 item", never "1 items", and counts others in full with their plural', () => {
    expect(countOf(1, 'item')).toBe('1 item');
    expect(countOf(0, 'item')).toBe('0 items');
    expect(countOf(12_345, 'item')).toBe('12,345 items');
    expect(countOf(1, 'global index', 'global indexes')).toBe('1 global index');
    expect(countOf(2, 'global index', 'global indexes')).toBe('2 global indexes');
  });

  it('shows small counts in full and large ones abbreviated', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(9_999)).toBe('9,999');
    expect(formatCount(12_345)).toBe('12.3K');
    expect(formatCount(1_250_000)).toBe('1.3M');
    expect(formatCount(431_000_000)).toBe('431M');
    expect(formatCount(2_000_000_000)).toBe('2.0B');
  });
});

describe('top bar text colour', () => {
  it('picks the more readable of black and white on the connection colour', () => {
    expect(textColorOn('#1f6feb')).toBe('#ffffff');
    expect(textColorOn('#cf222e')).toBe('#ffffff');
    expect(textColorOn('#bf8700')).toBe('#111418');
    expect(textColorOn('#ffffff')).toBe('#111418');
    expect(textColorOn('#000000')).toBe('#ffffff');
  });
});
