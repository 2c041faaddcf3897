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
  it('grouped by two columns, draws a series per value of the second column (not one zig-zag line)', () => {
    const rows = [
      ['2024-01', 'NEW', '3', '30.5'],
      ['2024-01', 'PAID', '5', '12'],
      ['2024-02', 'PAID', '2', '7.25'],
      ['2024-03', 'NEW', '1', '4'],
      ['2024-03', 'SHIPPED', '6', '60'],
    ].map(([month, status, n, total]) => [{ S: month! }, { S: status! }, { N: n! }, { N: total! }]);
    const data = chartData(['month', 'status', 'n', 'total'], ['S', 'S', 'N', 'N'], rows)!;
    expect(data).toMatchObject({
      labelColumn: 'month',
      splitColumn: 'status',
      labels: ['2024-01', '2024-02', '2024-03'],
      measures: ['n', 'total'],
      suggested: 'line',
    });
    const total = data.series.filter((s) => s.measure === 'total');
    expect(total.map((s) => [s.name, s.values])).toEqual([
      ['NEW', [30.5, null, 4]],
      ['PAID', [12, 7.25, null]],
      ['SHIPPED', [null, null, 60]],
    ]);
    expect(data.series.filter((s) => s.measure === 'n').map((s) => s.values)).toEqual([
      [3, null, 1],
      [5, 2, null],
      [null, null, 6],
    ]);
  });
  it('ticks are round numbers that cover the data', () => {
    expect(niceTicks(0, 1351.35)).toEqual([0, 500, 1000, 1500]);
    expect(niceTicks(-3, 7)).toEqual([-4, -2, 0, 2, 4, 6, 8]);
  });
});
