import { unmarshall } from '@aws-sdk/util-dynamodb';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import { buildSchemaReport } from '../../src/main/schema/report';
import { reportHead } from '../support/schema-report-head';
import { generateModel, scopeOf } from '../../src/shared/schema/model-gen';

const keys = { partitionKey: { name: 'pk', type: 'S' as const } };
const head = reportHead({ scanId: 'typecheck', table: 'orders_table', keys });

/** An item as a TypeScript literal, in the form unmarshall() gives it (sets as Set, binary as Uint8Array). */
function literal(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (v instanceof Set) return `new Set([${[...v].map(literal).join(', ')}])`;
  if (v instanceof Uint8Array) return `new Uint8Array([${[...v].join(', ')}])`;
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  if (v !== null && typeof v === 'object')
    return `{ ${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${literal(x)}`)
      .join(', ')} }`;
  return JSON.stringify(v);
}

/** The compiler's complaints about `text`, with the standard library (Set, Uint8Array) in reach. */
function diagnostics(text: string): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) =>
    name === 'items.ts' ? ts.createSourceFile(name, text, language) : read(name, language);
  const program = ts.createProgram(['items.ts'], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

// As the SDK returns items (binary as bytes), which is what unmarshall() turns into the plain form.
const items = [
  {
    pk: { S: 'ORDER#1' },
    total: { N: '12.5' },
    'a.b': { S: 'dotted' },
    tags: { SS: ['x', 'y'] },
    sizes: { NS: ['1', '2'] },
    blob: { B: new Uint8Array([0, 1]) },
    address: { M: { city: { S: 'Madrid' }, zip: { N: '28013' } } },
    lines: { L: [{ M: { sku: { S: 'A' }, qty: { N: '2' } } }, { M: { sku: { S: 'B' } } }] },
    flag: { BOOL: true },
    gone: { NULL: true },
  },
  {
    pk: { S: 'ORDER#2' },
    total: { S: '7' },
    tags: { SS: ['z'] },
    address: { M: { city: { S: 'Valencia' } } },
    lines: { L: [] },
    flag: { BOOL: false },
  },
] as unknown as Item[];

describe('the generated TypeScript type', () => {
  it('type-checks against every item it was generated from, and refuses one it does not describe', () => {
    const acc = new SchemaAccumulator({ keys, entities: { kind: 'keys' } });
    for (const item of items) acc.add(item);
    const model = generateModel(scopeOf(buildSchemaReport(acc, head, ['pk'])), 'ts', 'a test');
    const name = /export interface (\w+)/.exec(model)?.[1] as string;
    const plain = items.map((i) => literal(unmarshall(i as never, { wrapNumbers: false })));
    expect(diagnostics(`${model}\nexport const items: ${name}[] = [${plain.join(',\n')}];\n`)).toEqual([]);
    const wrong = `${model}\nexport const items: ${name}[] = [{ pk: 1, total: 2, flag: 'yes' }];\n`;
    expect(diagnostics(wrong).length).toBeGreaterThan(0);
  }, 60_000);

  it('types integers past 2^53 so the bigint unmarshall() gives them type-checks, where number would not', () => {
    const wide = [
      { pk: { S: 'A#1' }, balance: { N: '12345678901234567890123456789012345678' } },
      { pk: { S: 'A#2' }, balance: { N: '12' } },
    ] as unknown as Item[];
    const acc = new SchemaAccumulator({ keys, entities: { kind: 'keys' } });
    for (const item of wide) acc.add(item);
    const model = generateModel(scopeOf(buildSchemaReport(acc, head, ['pk'])), 'ts', 'a test');
    const name = /export interface (\w+)/.exec(model)?.[1] as string;
    const plain = wide.map((i) => literal(unmarshall(i as never)));
    expect(plain[0]).toContain('12345678901234567890123456789012345678n');
    expect(diagnostics(`${model}\nexport const items: ${name}[] = [${plain.join(',\n')}];\n`)).toEqual([]);
    const asNumber = model.replace('balance: number | bigint;', 'balance: number;');
    expect(
      diagnostics(`${asNumber}\nexport const items: ${name}[] = [${plain.join(',\n')}];\n`).length,
    ).toBeGreaterThan(0);
  }, 60_000);
});
