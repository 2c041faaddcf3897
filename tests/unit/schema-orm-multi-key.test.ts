import { describe, expect, it } from 'vitest';
import { SchemaAccumulator } from '../../src/main/schema/accumulator';
import { buildSchemaReport } from '../../src/main/schema/report';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { generateOrmModel } from '../../src/shared/schema/orm-model';
import { hostileItem, HOSTILE_INDEX, HOSTILE_INDEX_INFO } from '../support/hostile-multi-key';
import { reportHead } from '../support/schema-report-head';

// The generated dynotable-orm model of a table with a 2 + 2 multi-attribute index whose key
// attributes are __proto__, a.b / #x, [0]: the index declared with every attribute, in order.
const keys = { partitionKey: { name: 'id', type: 'S' as const } };
const indexes = [HOSTILE_INDEX_INFO];

describe('the generated model of a table with a multi-attribute index', () => {
  it('declares the index with every partition and sort attribute in key order, and tags each one', () => {
    const acc = new SchemaAccumulator({ keys, entities: { kind: 'keys' }, indexes });
    for (let n = 0; n < 12; n += 1) acc.add(hostileItem(n) as Item);
    const report = buildSchemaReport(acc, reportHead({ scanId: 'multi', table: 'events', keys, indexes }), [
      'id',
    ]);
    const text = generateOrmModel(report, undefined, 'a test');
    if (process.env.SHOW_ORM) console.log(text);
    expect(text).toContain(
      `// GSI ${HOSTILE_INDEX}: partition __proto__ + a.b, sort #x + [0] (multi-attribute key: a Query names every partition attribute with =, sort attributes left to right)`,
    );
    const line = (name: string) =>
      text
        .split('\n')
        .find((l) =>
          l.trimStart().startsWith(`${name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)}:`),
        );
    expect(line('__proto__')).toMatch(/\/\/ byHostile partition key, 1 of 2$/);
    expect(line('a.b')).toMatch(/\/\/ byHostile partition key, 2 of 2$/);
    expect(line('#x')).toMatch(/\/\/ byHostile sort key, 1 of 2$/);
    expect(line('[0]')).toMatch(/\/\/ byHostile sort key, 2 of 2$/);
    expect(text.split('\n').find((l) => l.trimStart().startsWith('id:'))).toContain('hashKey(');
  });
});
