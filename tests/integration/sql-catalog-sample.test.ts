import { afterAll, describe, expect, inject, it } from 'vitest';
import { keepProtoNames } from '../../src/main/aws/proto-names';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable, putItems } from '../support/dynamo-tables';
import { rawDynamo } from '../support/raw-dynamo';
import { sessionFor } from './sql-support';

const endpoint = inject('dynamoEndpoint');
const client = keepProtoNames(localClient(endpoint));
afterAll(() => client.destroy());

/** Orders and payments under binary partition keys, with names a person would not expect. */
function items(): Record<string, unknown>[] {
  return Array.from({ length: 30 }, (_, i) => {
    const item: Record<string, unknown> = {
      pk: { B: Buffer.from([i % 4, 255, 0]) },
      sk: { S: i % 3 === 0 ? `PAYMENT#${i}` : `ORDER#${i}` },
      'a.b': { N: String(i) },
      tags: { L: [{ S: 'x' }] },
    };
    // Defined, not assigned: `__proto__` is an attribute like any other.
    Object.defineProperty(item, '__proto__', {
      value: { M: { constructor: { S: 'c' } } },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return item;
  });
}

describe("SQL's catalog sample, read on the wire path", () => {
  it('finds the views, the hostile attribute paths and the capacity DynamoDB reports for the page', async () => {
    const table = uniqueTableName('catalogsample');
    await createTable(client, table, { partitionKey: ['pk', 'B'], sortKey: ['sk', 'S'] });
    await putItems(client, table, items() as never);
    const { session, connection } = sessionFor(client);
    const signal = new AbortController().signal;
    // A statement names the table first, so autocomplete samples it among a shared DynamoDB Local's many tables.
    await session.run(connection, `SELECT COUNT(*) FROM "${table}"`, [], { signal, refresh: false });
    const catalog = await session.catalog(connection, [], signal);

    const views = catalog.views.filter((v) => v.table === table);
    expect(views.map((v) => v.name).sort()).toEqual(['orders', 'payments']);
    expect(views.find((v) => v.name === 'payments')?.share).toBeCloseTo(10 / 30);
    const paths = catalog.attributes[table] ?? [];
    expect([...paths].sort()).toEqual(
      ['"a.b"', '__proto__', '__proto__.constructor', 'pk', 'sk', 'tags', 'tags[0]'].sort(),
    );
    expect(catalog.attributes[`${table}.orders`]).toContain('__proto__.constructor');

    // The oracle: DynamoDB Local's own answer to the same one-page Scan, past the SDK.
    const raw = await rawDynamo<{ Count: number; ConsumedCapacity: { CapacityUnits: number } }>(
      endpoint,
      'Scan',
      { TableName: table, Limit: 100, ReturnConsumedCapacity: 'TOTAL' },
    );
    expect(raw.Count).toBe(30);
    const info = catalog.tables.find((t) => t.name === table);
    expect(info?.itemsPerPartition).toBeCloseTo(30 / 4);
    expect(raw.ConsumedCapacity.CapacityUnits).toBeGreaterThan(0);
    expect(catalog.sampleCapacity).toBeGreaterThanOrEqual(raw.ConsumedCapacity.CapacityUnits);
  });
});
