import { describe, expect, it } from 'vitest';
import { chartData, niceTicks } from '../../src/renderer/features/sql/chart-data';
import { statementAt } from '../../src/renderer/features/sql/statement-at';

describe('statement under the cursor', () => {
  const text = "SELECT 1;\n-- a ; in a comment\nSELECT ';' AS x\nFROM t;\n\nSELECT 3";
  it('splits on semicolons outside quotes and comments', () => {
    expect(statementAt(text, 3).text).toBe('SELECT 1');
    const second = statementAt(text, text.indexOf('FROM t'));
    expect(second.text).toBe("-- a ; in a comment\nSELECT ';' AS x\nFROM t");
    expect(text.slice(second.from, second.to)).toBe(second.text);
    expect(statementAt(text, text.length).text).toBe('SELECT 3');
  });
  it('uses the statement before a trailing semicolon, and the selection when there is one', () => {
    expect(statementAt('SELECT 1;\n', 10).text).toBe('SELECT 1');
    expect(statementAt(text, 0, { from: 7, to: 8 })).toEqual({ text: '1', from: 7, to: 8 });
  });
});

describe('chart data', () => {
  it('labels by the first non-number column and suggests bars for categories, a line for dates', () => {
    const bars = chartData(
      ['name', 'n'],
      ['S', 'N'],
      [
        [{ S: 'a' }, { N: '3' }],
        [{ S: 'b' }, { N: '1.5' }],
      ],
    )!;
    expect(bars).toMatchObject({ labelColumn: 'name', labels: ['a', 'b'], suggested: 'bar' });
    expect(bars.series[0]!.values).toEqual([3, 1.5]);
    const line = chartData(['month', 'n'], ['S', 'N'], [[{ S: '2024-01-01T00:00:00.000Z' }, { N: '1' }]])!;
    expect(line.suggested).toBe('line');
    expect(chartData(['name'], ['S'], [[{ S: 'x' }]])).toBeUndefined();
  });
  it('ticks are round numbers that cover the data', () => {
    expect(niceTicks(0, 1351.35)).toEqual([0, 500, 1000, 1500]);
    expect(niceTicks(-3, 7)).toEqual([-4, -2, 0, 2, 4, 6, 8]);
  });
});
