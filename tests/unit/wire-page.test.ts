import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, splitWirePage } from '../../src/main/dynamo/query/wire-page';
import { WireFormatError } from '../../src/main/resultsets/wire-cursor';
import { toAppError } from '../../src/main/core/to-app-error';
import { ErrorCodes } from '../../src/shared/errors';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { everyTypeItem } from '../fixtures/items-every-type';

type Wire = Record<string, unknown>;

/** An own property, `__proto__` included (a plain assignment would set the prototype). */
function own(into: Wire, name: string, value: unknown): Wire {
  Object.defineProperty(into, name, { value, enumerable: true, writable: true, configurable: true });
  return into;
}

const NAMES = [
  '__proto__',
  'constructor',
  'toString',
  'Items',
  'a.b',
  '#x',
  '[0]',
  'q"uote',
  'back\\slash',
  'café',
  '名前 😀',
];
const name = fc.oneof(fc.constantFrom(...NAMES), fc.string({ minLength: 1, maxLength: 5 }));
const text = fc.oneof(
  fc.constantFrom('', '"', '\\', '\\"', '{"S":"x"}', '],[', '}', 'emoji 😀', '\u0001\n\t'),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);
const leaf = fc.oneof(
  text.map((S) => ({ S })),
  fc.constantFrom('0', '-1.5E-120', '12345678901234567890123456789012345678').map((N) => ({ N })),
  fc.boolean().map((BOOL) => ({ BOOL })),
  fc.constant({ NULL: true }),
  fc.uniqueArray(text, { minLength: 1, maxLength: 3 }).map((SS) => ({ SS })),
);
const entries = <T>(value: fc.Arbitrary<T>, max: number) =>
  fc
    .uniqueArray(fc.tuple(name, value), { maxLength: max, selector: ([n]) => n })
    .map((pairs) => pairs.reduce<Wire>((out, [n, v]) => own(out, n, v), {}));
const value = fc.oneof(
  leaf,
  entries(leaf, 3).map((M) => ({ M })),
  fc.array(leaf, { maxLength: 3 }).map((L) => ({ L })),
);
/** Items big enough, some of them, that a page spans several chunks. */
const item = fc
  .tuple(entries(value, 5), fc.nat({ max: 3 * CHUNK_BYTES }))
  .map(([i, pad]) => (pad > 2 * CHUNK_BYTES ? own(i, 'pad', { S: 'x'.repeat(pad % 12_000) }) : i));

const page = fc.record({
  items: fc.array(item, { maxLength: 40 }),
  at: fc.nat({ max: 3 }),
  indent: fc.constantFrom(undefined, 2, '\t'),
});

function body(items: Wire[], at: number, indent?: number | string): string {
  const members: [string, unknown][] = [
    ['Count', items.length],
    ['ScannedCount', items.length + 2],
    ['LastEvaluatedKey', { pk: { S: 'k"1' } }],
  ];
  members.splice(at, 0, ['Items', items]);
  return JSON.stringify(
    members.reduce<Wire>((out, [n, v]) => own(out, n, v), {}),
    null,
    indent,
  );
}

describe("a Scan page's Items, parsed a chunk at a time", () => {
  it('gives exactly what JSON.parse of the whole body gives: items, hostile names as own properties, and the rest', () => {
    fc.assert(
      fc.property(page, ({ items, at, indent }) => {
        const text = body(items, at, indent);
        const oracle = JSON.parse(text) as Wire;
        const { rest, items: split } = splitWirePage(Buffer.from(text, 'utf8'));
        expect(split.length).toBe(items.length);
        expect([...split]).toEqual(oracle.Items);
        // A second pass reads the same items again.
        expect([...split]).toEqual(oracle.Items);
        const { Items: _, ...others } = oracle;
        expect({ ...rest }).toEqual(others);
      }),
      { numRuns: 200, seed: 15 },
    );
  });

  it('keeps `__proto__` and `constructor` as data at every depth', () => {
    const hostile = own(own({ pk: { S: 'h' } }, '__proto__', { S: 'proto' }), 'constructor', {
      M: own({}, '__proto__', { N: '1' }),
    });
    const { items } = splitWirePage(Buffer.from(body([hostile], 1), 'utf8'));
    const [got] = [...items] as Wire[];
    expect(Object.hasOwn(got as Wire, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(got, '__proto__')?.value).toEqual({ S: 'proto' });
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    const inner = (Object.getOwnPropertyDescriptor(got, 'constructor')?.value as { M: Wire }).M;
    expect(Object.getOwnPropertyDescriptor(inner, '__proto__')?.value).toEqual({ N: '1' });
  });

  it('reads a page of a thousand every-type items across many chunks, and an item larger than a chunk', () => {
    const items: Item[] = Array.from({ length: 1000 }, (_, i) => everyTypeItem(`every#${i}`));
    items.splice(500, 0, { pk: { S: 'big' }, blob: { S: 'y'.repeat(3 * CHUNK_BYTES) } });
    const text = body(items, 0);
    expect(text.length).toBeGreaterThan(10 * CHUNK_BYTES);
    const { items: split } = splitWirePage(Buffer.from(text, 'utf8'));
    expect(split.length).toBe(1001);
    expect([...split]).toEqual((JSON.parse(text) as Wire).Items);
  });

  it('reads a page without Items, or with none, as no items', () => {
    for (const text of [
      '{"Count":0,"ScannedCount":4}',
      '{"Items":[],"Count":0}',
      '{}',
      ' { "Items" : [ ] } ',
    ]) {
      const { rest, items } = splitWirePage(Buffer.from(text, 'utf8'));
      expect(items.length).toBe(0);
      expect([...items]).toEqual([]);
      const { Items: _, ...others } = JSON.parse(text) as Wire;
      expect({ ...rest }).toEqual(others);
    }
  });

  it('takes the last Items member when a body repeats it, as JSON.parse does', () => {
    const text = '{"Items":[{"a":{"S":"1"}}],"Count":1,"Items":[{"b":{"S":"2"}},{"c":{"N":"3"}}]}';
    const { items } = splitWirePage(Buffer.from(text, 'utf8'));
    expect(items.length).toBe(2);
    expect([...items]).toEqual((JSON.parse(text) as Wire).Items);
  });

  it('refuses a body that is not a page, naming the byte, instead of reading part of it', () => {
    const cases = [
      '{"Items":[{"a":{"S":"1"}},',
      '{"Items":[{"a":{"S":"1"}}],"Count":',
      '{"Items":[1,2]}',
      '{"Items":[{"a":{"S":"unterminated}}]}',
      '<html>Bad Gateway</html>',
    ];
    for (const text of cases) {
      expect(() => splitWirePage(Buffer.from(text, 'utf8')), text).toThrow(WireFormatError);
      expect(() => splitWirePage(Buffer.from(text, 'utf8')), text).toThrow(/at byte \d+/);
    }
  });

  it('tells the user a broken item is an unreadable answer to retry, not a defect of DynoTable', () => {
    const { items } = splitWirePage(Buffer.from('{"Items":[{"a":{"N":-"1"}}]}', 'utf8'));
    let thrown: unknown;
    try {
      Array.from(items);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(WireFormatError);
    const shown = toAppError(thrown);
    expect(shown.code).toBe(ErrorCodes.unexpectedResponse);
    expect(shown.retryable).toBe(true);
    expect(shown.message).toMatch(
      /^DynamoDB's answer could not be read, so nothing of it was used\. Unexpected DynamoDB response between bytes 10 and 26: an item there is not valid JSON .*Try again; a scan resumes from its last checkpoint\.$/,
    );
  });
});
