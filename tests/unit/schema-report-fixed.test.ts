import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AttributeValue, Item } from '../../src/shared/dynamo/attribute-value';
import type { KeySchema } from '../../src/shared/ipc/tables';
import { SchemaAccumulator, type SchemaState } from '../../src/main/schema/accumulator';
import { buildSchemaReport } from '../../src/main/schema/report';
import { defineOwn } from '../../src/shared/dynamo/proto-keys';
import { reportHead } from '../support/schema-report-head';
import { order } from '../bench/scan-bench';
import { splitWirePage } from '../../src/main/dynamo/query/wire-page';

/**
 * The schema report of one fixed data set, held as a file: work on the analysis's speed must
 * leave every figure of it as it is. Regenerate only for an intended change of the report, with
 * UPDATE_SCHEMA_FIXTURE=1 (then prettier --write the file), and say why in the commit.
 */
const FIXTURE = path.resolve(__dirname, '../fixtures/schema/orders-report.json');
const keys: KeySchema = { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'sk', type: 'S' } };

/**
 * The schema bench's orders (scan-bench.ts), made orders and customers under a sort key, with
 * oddities: every value type, string formats, hostile names, paths past the exact limit.
 */
function item(i: number): Item {
  const kind = i % 5 === 0 ? 'CUSTOMER' : 'ORDER';
  const base: Record<string, AttributeValue> = {
    ...order(i),
    pk: { S: `${kind}#${(i % 701).toString(36).padStart(6, '0')}` },
    sk: { S: kind === 'ORDER' ? `ORDER#${i.toString(36).padStart(8, '0')}` : 'PROFILE' },
    status: { S: ['NEW', 'PAID', 'SHIPPED', ''][i % 4] as string },
    price: { N: i % 11 === 0 ? `-${i}.5` : String(1_700_000 + i * 13) },
  };
  if (kind === 'CUSTOMER') {
    base.email = { S: `user${i}@example.org` };
    base.id = {
      S: `${(i * 2_654_435_761).toString(16).padStart(8, '0')}-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    };
    base.tags = { SS: ['vip', `t${i % 9}`] };
    base.scores = { NS: [String(i % 100), '3.25'] };
    base.active = { BOOL: i % 2 === 0 };
  }
  if (i % 13 === 0) defineOwn(base, '__proto__', { S: 'proto' });
  if (i % 17 === 0) base.blob = { B: Buffer.from([i % 256, 1, 2]).toString('base64') };
  if (i % 19 === 0) base.gone = { NULL: true };
  if (i % 23 === 0) base.url = { S: `https://example.org/p/${i}` };
  return base;
}

/**
 * `wire`: each part's items reach it as a Scan's response bodies of 250 items, walked from
 * their bytes (addWire), as the Schema view's full scan reads them.
 */
function report(from: 'items' | 'wire' = 'items'): unknown {
  const entities = { kind: 'keys' } as const;
  const parts = Array.from({ length: 3 }, () => new SchemaAccumulator({ keys, entities }));
  if (from === 'items') for (let i = 0; i < 3000; i++) (parts[i % 3] as SchemaAccumulator).add(item(i));
  else
    parts.forEach((part, p) => {
      const mine = Array.from({ length: 1000 }, (_, k) => item(k * 3 + p));
      for (let i = 0; i < mine.length; i += 250) {
        const Items = mine.slice(i, i + 250);
        part.addWire(splitWirePage(Buffer.from(JSON.stringify({ Count: Items.length, Items }))).items);
      }
    });
  const merged = new SchemaAccumulator({ keys, entities });
  for (const part of parts) merged.merge(JSON.parse(JSON.stringify(part.toJSON())) as SchemaState);
  const head = reportHead({ scanId: 'fixed', table: 'Orders', keys }, entities);
  return JSON.parse(JSON.stringify(buildSchemaReport(merged, head, ['pk', 'sk']))) as unknown;
}

describe('the schema report of a fixed data set', () => {
  it('is the same, figure for figure, as the one on file', () => {
    const now = report();
    if (process.env.UPDATE_SCHEMA_FIXTURE === '1')
      writeFileSync(FIXTURE, `${JSON.stringify(now, null, 1)}\n`);
    expect(now).toEqual(JSON.parse(readFileSync(FIXTURE, 'utf8')));
  });

  it('is the same when the items are walked from the response bytes', () => {
    expect(report('wire')).toEqual(JSON.parse(readFileSync(FIXTURE, 'utf8')));
  });
});
