import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { RawBlockBudget } from '../../src/main/resultsets/arena';
import {
  COLD_BLOCK_ROWS,
  ColdStrings,
  compressRawText,
  rawTextBytes,
} from '../../src/main/sql/executor/cold-strings';
import { runLocal, tableInfo } from '../../src/main/sql/executor/run-local';
import { ColumnarTable } from '../../src/main/sql/executor/table';

// String columns are sealed compressed once a block fills; whatever is read back must be the
// very values appended, in order, whatever the text (unicode, empty, absent) and page sizes.
describe('compressed string columns', () => {
  it('give back every string and every absence of a block, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.string({ unit: 'grapheme', maxLength: 300 }), { nil: undefined })),
        (values) => {
          const cold = new ColdStrings();
          cold.append(values);
          cold.append(values);
          expect(cold.decode()).toEqual([...values, ...values]);
          expect(cold.rows).toBe(values.length * 2);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('hold a table of many pages exactly, and a column that later mixes types goes back to plain values', () => {
    const rows = COLD_BLOCK_ROWS * 2 + 123;
    const items: Item[] = [];
    for (let i = 0; i < rows; i++) {
      const item: Item = { pk: { S: `p${i}` } };
      if (i % 7 !== 0) item.text = { S: i % 11 === 0 ? '' : `é ${'x'.repeat(i % 50)} 😀 ${i}` };
      if (i > 100) item.late = { S: `late ${i}` };
      // A string column for two blocks, then a number.
      item.mixed = i === COLD_BLOCK_ROWS * 2 + 5 ? { N: '5' } : { S: `m${i}` };
      items.push(item);
    }
    const table = new ColumnarTable('T', ['pk']);
    for (let start = 0; start < rows; start += 997) table.appendTaggedItems(items.slice(start, start + 997));
    const text = table.column('text')!;
    const late = table.column('late')!;
    const mixed = table.column('mixed')!;
    // One comparison per column: 25,000 expect calls took over 5 s on the shared machine.
    expect(text).toEqual(items.map((item) => (item.text && 'S' in item.text ? item.text.S : undefined)));
    expect(late).toEqual(items.map((item) => (item.late && 'S' in item.late ? item.late.S : undefined)));
    const mixedAt = COLD_BLOCK_ROWS * 2 + 5;
    expect(mixed.filter((_, i) => i !== mixedAt)).toEqual(
      items.map((_, i) => `m${i}`).filter((_, i) => i !== mixedAt),
    );
    expect(typeof mixed[mixedAt]).not.toBe('string');
    table.coolDown();
    table.coolDown();
    expect(table.column('text')).toEqual(text);
  });

  it('answer statements over sealed columns as over plain ones', () => {
    const items: Item[] = Array.from({ length: COLD_BLOCK_ROWS + 500 }, (_, i) => ({
      pk: { S: `u${i % 300}` },
      sk: { S: `o${i}` },
      status: { S: ['NEW', 'PAID', 'SHIPPED'][i % 3]! },
      note: { S: `note ${i}` },
    }));
    const { rows } = runLocal(
      "SELECT status, COUNT(*) AS n, MAX(note) AS top FROM T WHERE note LIKE 'note 1%' GROUP BY status ORDER BY status",
      [{ info: tableInfo('T', 'pk', 'sk'), items }],
    );
    const expected = ['NEW', 'PAID', 'SHIPPED'].map((status, s) => {
      const notes = items
        .filter((_, i) => i % 3 === s && `note ${i}`.startsWith('note 1'))
        .map((item) => (item.note as { S: string }).S);
      return [status, notes.length, [...notes].sort().at(-1)];
    });
    expect(rows.map(([status, n, top]) => [status, Number(n), top])).toEqual(expected);
  });

  // Blocks wait raw after a read and are compressed on later turns: a value read in between, or
  // after, or from a block the budget compressed early, is the value appended.
  it('read the same while blocks wait raw, once they are compressed after the read, and past the budget', async () => {
    const values = Array.from({ length: COLD_BLOCK_ROWS * 3 + 17 }, (_, i) =>
      i % 13 === 0 ? undefined : `${'free text é '.repeat(1 + (i % 9))}${i}`,
    );
    const budget = new RawBlockBudget(COLD_BLOCK_ROWS * 150);
    const small = new ColdStrings(budget);
    for (let start = 0; start < values.length; start += 1000) small.append(values.slice(start, start + 1000));
    small.finish();
    // Four blocks of ~100 bytes a row passed a budget of about one and a half: the oldest went.
    expect(budget.rawBytes).toBeGreaterThan(0);
    expect(budget.rawBytes).toBeLessThanOrEqual(COLD_BLOCK_ROWS * 150);
    expect(small.decode()).toEqual(values);

    const items = values.map((text, i): Item => {
      const item: Item = { pk: { S: `p${i}` } };
      if (text !== undefined) item.text = { S: text };
      return item;
    });
    const table = new ColumnarTable('T', ['pk']);
    compressRawText();
    for (let start = 0; start < items.length; start += 1000)
      table.appendTaggedItems(items.slice(start, start + 1000));
    table.finish();
    const waiting = rawTextBytes();
    expect(waiting).toBeGreaterThan(0);
    expect(table.column('text')).toEqual(values);
    table.coolDown();
    table.coolDown();
    for (let turn = 0; turn < 100 && rawTextBytes() > 0; turn++)
      await new Promise((done) => setImmediate(done));
    expect(rawTextBytes()).toBe(0);
    expect(table.column('text')).toEqual(values);
  });
});
