import { describe, expect, it } from 'vitest';
import { isItem, itemSchema } from '../../src/shared/dynamo/attribute-value';
import { safeParseKeepingProtoKeys } from '../../src/shared/dynamo/proto-keys';
import { checkedEvent } from '../../src/renderer/ipc/subscriptions';

const nested = (levels: number): unknown => {
  let value: unknown = { S: 'bottom' };
  for (let i = 1; i < levels; i++) value = i % 2 ? { L: [value] } : { M: { inner: value } };
  return value;
};

/** Each as JSON text, parsed as the page parses the event stream (own `__proto__` keys kept). */
const candidates: string[] = [
  '{}',
  '{"PK":{"S":"ORDER#1"},"n":{"N":"-12.50e3"},"b":{"B":"AAEC"},"t":{"BOOL":false},"z":{"NULL":true}}',
  '{"__proto__":{"S":"data"},"constructor":{"N":"1"},"a.b":{"SS":["x","y"]},"#[0]":{"NS":["1",".5"]}}',
  '{"bs":{"BS":["AA==","AAE="]},"l":{"L":[{"S":"x"},{"M":{"__proto__":{"N":"2"}}}]},"m":{"M":{}}}',
  JSON.stringify({ deep: nested(32) }),
  JSON.stringify({ deep: nested(33) }),
  '{"n":{"N":"12a"}}',
  '{"n":{"N":1}}',
  '{"b":{"B":"not base64!"}}',
  '{"bs":{"BS":["AA==","%%"]}}',
  '{"ns":{"NS":["1","x"]}}',
  '{"ss":{"SS":["a",1]}}',
  '{"z":{"NULL":false}}',
  '{"t":{"BOOL":"true"}}',
  '{"two":{"S":"a","N":"1"}}',
  '{"none":{}}',
  '{"odd":{"X":"1"}}',
  '{"proto":{"__proto__":"x"}}',
  '{"m":{"M":[]}}',
  '{"l":{"L":{"0":{"S":"a"}}}}',
  '{"l":{"L":[{"S":"a"},{"N":"nope"}]}}',
  '{"s":{"S":null}}',
  '{"s":"plain"}',
  '[]',
  'null',
  '"item"',
];

describe("a read's first rows on its page event", () => {
  it('isItem accepts exactly what itemSchema accepts', () => {
    for (const text of candidates) {
      const value: unknown = JSON.parse(text);
      expect({ text, isItem: isItem(value) }).toEqual({
        text,
        isItem: safeParseKeepingProtoKeys(itemSchema, value).success,
      });
    }
  });

  it('delivers a page event with its rows as sent, `__proto__` names kept as data', () => {
    const event = checkedEvent(
      JSON.parse(
        '{"requestId":"items-1234567890","seq":1,"type":"page","resultSetId":"rs_1","added":1,"total":1,"first":{"rows":[{"__proto__":{"S":"x"},"PK":{"S":"A"}}],"columns":["PK","__proto__"]}}',
      ),
    );
    expect(event?.type).toBe('page');
    const row = event?.type === 'page' ? event.first?.rows[0] : undefined;
    expect(row && Object.keys(row)).toEqual(['__proto__', 'PK']);
    expect(row && Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toEqual({ S: 'x' });
    expect(event?.type === 'page' ? event.first?.columns : undefined).toEqual(['PK', '__proto__']);
  });

  it('drops a page event whose rows or whose other fields are not what the contract says', () => {
    const page = (first: unknown, total: unknown = 1) =>
      checkedEvent({
        requestId: 'items-1234567890',
        seq: 1,
        type: 'page',
        resultSetId: 'rs_1',
        added: 1,
        total,
        first,
      });
    expect(page({ rows: [{ PK: { S: 'A' } }], columns: ['PK'] })).toBeDefined();
    expect(page({ rows: [{ PK: { N: 'A' } }], columns: ['PK'] })).toBeUndefined();
    expect(page({ rows: [{ PK: { S: 'A' } }], columns: [1] })).toBeUndefined();
    expect(page({ rows: {}, columns: [] })).toBeUndefined();
    expect(page({ rows: [{ PK: { S: 'A' } }], columns: ['PK'] }, 'one')).toBeUndefined();
  });
});
