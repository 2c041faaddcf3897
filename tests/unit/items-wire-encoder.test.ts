import { describe, expect, it } from 'vitest';
import { ResultSetCore } from '../../src/main/resultsets/result-set-core';
import { WireFormatError } from '../../src/main/resultsets/wire-cursor';
import { toAppError } from '../../src/main/core/to-app-error';
import { ErrorCodes } from '../../src/shared/errors';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { everyTypeItem } from '../fixtures/items-every-type';

function appendWire(body: string): {
  core: ResultSetCore;
  id: string;
  result: ReturnType<ResultSetCore['appendWire']>;
} {
  const core = new ResultSetCore();
  const id = core.create({ connectionId: 'c', table: 't', keyAttributes: ['pk'] });
  const result = core.appendWire(id, Buffer.from(body, 'utf8'));
  return { core, id, result };
}

describe('encoding Query/Scan responses straight from their bytes', () => {
  it('stores the every-type item exactly as the object path does', () => {
    const items: Item[] = [everyTypeItem('a'), everyTypeItem('b'), { pk: { S: 'c' } }];
    const body = JSON.stringify({
      Count: 3,
      Items: items,
      ScannedCount: 5,
      LastEvaluatedKey: { pk: { S: 'c' } },
      ConsumedCapacity: { TableName: 't', CapacityUnits: 1.5 },
    });
    const { core, id, result } = appendWire(body);
    expect(result).toEqual({
      items: 3,
      total: 3,
      rest: {
        Count: 3,
        ScannedCount: 5,
        LastEvaluatedKey: { pk: { S: 'c' } },
        ConsumedCapacity: { TableName: 't', CapacityUnits: 1.5 },
      },
    });
    expect(core.window(id, 0, 10).rows).toEqual(items);
    const reference = new ResultSetCore();
    const refId = reference.create({ connectionId: 'c', table: 't', keyAttributes: ['pk'] });
    reference.append(refId, items);
    expect(core.window(id, 0, 10).columns).toEqual(reference.window(refId, 0, 10).columns);
  });

  it('handles escapes, unicode, whitespace, empty containers and counts past 127', () => {
    const wide: Record<string, Item[string]> = {};
    for (let i = 0; i < 300; i++) wide[`k${i}`] = { N: String(i) };
    const item: Item = {
      pk: { S: 'quote " backslash \\ newline \n tab \t emoji 😀 名前 \u0001' },
      'name "quoted"': { SS: ['a"b', 'c\\d', ''] },
      list: { L: Array.from({ length: 200 }, (_, i) => ({ N: String(i) })) },
      wide: { M: wide },
      empty: { M: {} },
      emptyList: { L: [] },
      flags: { L: [{ BOOL: true }, { BOOL: false }, { NULL: true }] },
      bin: { BS: ['AA==', '//8='] },
    };
    const body = `{ "Items" : [ ${JSON.stringify(item, null, 2)} ] , "Count": 1 }`;
    const { core, id } = appendWire(body);
    expect(core.window(id, 0, 1).rows[0]).toEqual(item);
  });

  it('keeps every name when items change their attribute order, and names share prefixes', () => {
    // The encoder guesses each name from the order of the item before; every guess here is
    // wrong in a different way (a prefix, a longer name, an escaped name, another nesting).
    const items: Item[] = [
      { pk: { S: '1' }, ab: { N: '1' }, m: { M: { x: { S: 'a' }, xy: { S: 'b' } } } },
      { pk: { S: '2' }, a: { N: '2' }, m: { M: { xy: { S: 'c' }, x: { S: 'd' } } } },
      { pk: { S: '3' }, abc: { N: '3' }, 'a"b': { S: 'q' }, m: { L: [{ M: { x: { S: 'e' } } }] } },
      { m: { M: { '': { S: 'empty name' } } }, ab: { N: '4' }, pk: { S: '4' } },
      { pk: { S: '5' }, ab: { N: '5' }, m: { M: { x: { S: 'a' }, xy: { S: 'b' } } } },
    ];
    const { core, id } = appendWire(JSON.stringify({ Items: items, Count: items.length }));
    expect(core.window(id, 0, 10).rows).toEqual(items);
  });

  it('decodes binary of every padding from its bytes, and escaped or loose base64 as Buffer does', () => {
    const binaries = Array.from({ length: 12 }, (_, n) =>
      Buffer.from(Array.from({ length: n }, (_, k) => (n * 37 + k * 101) % 256)).toString('base64'),
    );
    const items: Item[] = binaries.map((b, n) => ({
      pk: { S: String(n) },
      b: { B: b },
      bs: { BS: [b, 'AQ=='] },
    }));
    const { core, id } = appendWire(JSON.stringify({ Items: items, Count: items.length }));
    expect(core.window(id, 0, 20).rows).toEqual(items);
    // "\/" is JSON's escaped slash; base64 without padding is read leniently, as Buffer reads it.
    const loose = appendWire('{"Items":[{"pk":{"S":"x"},"b":{"B":"\\/w=="},"c":{"B":"AQI"}}]}');
    expect(loose.core.window(loose.id, 0, 1).rows[0]).toEqual({
      pk: { S: 'x' },
      b: { B: Buffer.from([0xff]).toString('base64') },
      c: { B: Buffer.from([1, 2]).toString('base64') },
    });
  });

  it('finds escapes in long strings wherever they fall in the body, across items and blocks', () => {
    // Long strings search for their end natively; the next backslash is found once and kept.
    const long = 'x'.repeat(70);
    const items: Item[] = Array.from({ length: 400 }, (_, n) => ({
      pk: { S: `${n}` },
      text: { S: n % 7 === 3 ? `${long} "quoted" \\ ${n}` : `${long}${'y'.repeat(n % 300)}` },
    }));
    // An outsized item: bigger than an arena block.
    items.push({ pk: { S: 'big' }, text: { S: `${'z'.repeat(200_000)}\\end` } });
    const { core, id } = appendWire(JSON.stringify({ Items: items, Count: items.length }));
    expect(core.window(id, 0, 500).rows).toEqual(items);
  });

  it('refuses a body that is not a DynamoDB response, naming where', () => {
    expect(() => appendWire('{"Items": [{"pk": {"X": "1"}}]}')).toThrow(/unknown type "X"/);
    expect(() => appendWire('{"Items": [{"pk": {"S": "1"}')).toThrow(/Unexpected DynamoDB response at byte/);
  });

  it('calls a malformed escape in a value or a name an unreadable answer, keeping none of the page', () => {
    const good = '{"pk":{"S":"kept"}}';
    for (const bad of ['{"pk":{"S":"a\\x"}}', '{"p\\q":{"S":"a"}}', '{"pk":{"S":"cut \\u12"}}']) {
      const core = new ResultSetCore();
      const id = core.create({ connectionId: 'c', table: 't', keyAttributes: ['pk'] });
      let thrown: unknown;
      try {
        core.appendWire(id, Buffer.from(`{"Items":[${good},${bad}],"Count":2}`, 'utf8'));
      } catch (error) {
        thrown = error;
      }
      expect(thrown, bad).toBeInstanceOf(WireFormatError);
      expect((thrown as Error).message, bad).toMatch(
        /between bytes \d+ and \d+: a string's escape is not valid JSON/,
      );
      expect(toAppError(thrown).code, bad).toBe(ErrorCodes.unexpectedResponse);
      expect(core.window(id, 0, 10).total, bad).toBe(0);
    }
  });

  it("keeps a response member named __proto__ as a member, not the page's prototype", () => {
    const { result } = appendWire('{"Items":[{"pk":{"S":"a"}}],"__proto__":{"polluted":true},"Count":1}');
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result.rest, '__proto__')).toBe(true);
    expect(result.rest['__proto__']).toEqual({ polluted: true });
    expect((result.rest as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
