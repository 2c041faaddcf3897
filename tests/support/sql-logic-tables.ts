import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { toSdkItem } from '../../src/main/dynamo/marshal';
import { uniqueTableName } from './dynamo-local';
import { createTable, putItems } from './dynamo-tables';
import type { SltTable } from './sql-logic';

/** A .slt file's tables in DynamoDB Local, under unique names: the file's name → this run's. */
export async function createSltTables(
  client: DynamoDBClient,
  tables: SltTable[],
  prefix = 'slt',
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const t of tables) {
    const name = await createTable(client, uniqueTableName(`${prefix}_${t.name}`), {
      partitionKey: [t.keys[0]!.name, t.keys[0]!.type],
      sortKey: t.keys[1] ? [t.keys[1].name, t.keys[1].type] : undefined,
    });
    await putItems(
      client,
      name,
      t.items.map((item) => toSdkItem(item)),
    );
    names.set(t.name, name);
  }
  return names;
}

/** The file's table names → this run's unique DynamoDB tables (whole words only). */
export function renameSltTables(sql: string, names: Map<string, string>): string {
  let out = sql;
  for (const [from, to] of names) out = out.replace(new RegExp(`\\b${from}\\b`, 'g'), `"${to}"`);
  return out;
}
