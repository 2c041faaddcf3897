import { describe, expect, it } from 'vitest';
import { ResultSetCore } from '../../../src/main/resultsets/result-set-core';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import { everyTypeItem } from '../../fixtures/items-every-type';

function opened(): { core: ResultSetCore; id: string } {
  const core = new ResultSetCore();
  return { core, id: core.create({ connectionId: 'c', table: 'export:t', keyAttributes: ['pk'] }) };
}

const hostile: Item = JSON.parse(
  '{"pk":{"S":"h"},"__proto__":{"S":"p"},"constructor":{"N":"1"},"a.b":{"M":{"__proto__":{"BOOL":true}}},"[0]":{"L":[]}}',
) as Item;

describe('export data lines encoded from their bytes', () => {
  it('hold the same items JSON.parse reads from the lines, whatever the spacing and escapes', () => {
    const items: Item[] = [
      everyTypeItem('a'),
      hostile,
      { pk: { S: 'quote " and \\ and \u00e9 \ud83d\ude00' } },
    ];
    const lines = `${items.map((Item, i) => (i === 1 ? ` { "Item" : ${JSON.stringify(Item, null, 1).replace(/\n/g, ' ')} }` : JSON.stringify({ Item }))).join('\n')}\n`;
    const { core, id } = opened();
    expect(core.appendExportLines(id, Buffer.from(lines))).toBe(3);
    const oracle = lines
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { Item: Item }).Item);
    expect(core.window(id, 0, 10).rows).toEqual(oracle);
    expect(Object.keys(core.window(id, 1, 1).rows[0]!)).toContain('__proto__');
  });

  it('refuses an incremental line where a full export line belongs, in words', () => {
    const { core, id } = opened();
    expect(() => core.appendExportLines(id, Buffer.from('{"Keys":{"pk":{"S":"a"}}}\n'))).toThrow(
      /expected an "Item" member/,
    );
  });

  it('applies changes: an update replaces the row, a delete removes it, an insert joins', () => {
    const { core, id } = opened();
    const base = ['a', 'b', 'c']
      .map((pk) => JSON.stringify({ Item: { pk: { S: pk }, v: { N: '1' } } }))
      .join('\n');
    core.appendExportLines(id, Buffer.from(base));
    const total = core.applyExportChanges(id, [
      { key: { pk: { S: 'a' } }, item: { pk: { S: 'a' }, v: { N: '2' } } },
      { key: { pk: { S: 'b' } } },
      { key: { pk: { S: 'd' } }, item: { pk: { S: 'd' }, v: { N: '9' } } },
    ]);
    expect(total).toBe(3);
    const rows = core.window(id, 0, 10).rows;
    expect(rows).toEqual([
      { pk: { S: 'c' }, v: { N: '1' } },
      { pk: { S: 'a' }, v: { N: '2' } },
      { pk: { S: 'd' }, v: { N: '9' } },
    ]);
  });
});
