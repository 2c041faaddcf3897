import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { KeySchema, TableSummary } from '../../shared/ipc/tables';
import { tableDetails } from '../dynamo/table-metadata';
import { keyAttributes } from '../../shared/dynamo/key-model';
import type { TableKeyInfo } from './report';

/**
 * What a migration scan keeps of a table in its checkpoint (so a resumed scan plans with the
 * table it started on): a projection of the one TableSummary, not a second description.
 */
export interface MigrationTableInfo extends TableKeyInfo {
  table: string;
  itemCount: number;
  sizeBytes: number;
  /** Provisioned read capacity, absent for on-demand tables. */
  readCapacity?: number;
  writeCapacity?: number;
  /** The table's indexes and their keys (the Schema view's diagram and ORM model show them). */
  indexes?: { name: string; kind: 'GSI' | 'LSI'; keys: KeySchema }[];
  /** The TTL attribute while TTL is on (DescribeTimeToLive); absent when off, or in older checkpoints. */
  ttlAttribute?: string;
}

export function tableInfoOf(summary: TableSummary): MigrationTableInfo {
  // Keyed by attribute names, which are data (`__proto__`, `constructor` are legal).
  const indexKeys = Object.create(null) as Record<string, string[]>;
  for (const index of summary.indexes) {
    for (const key of keyAttributes(index.keys)) (indexKeys[key.name] ??= []).push(index.name);
  }
  const { readCapacity, writeCapacity } = summary;
  // ENABLING counts: items written meanwhile are read by the same rule once it is on.
  const ttlOn = summary.ttl.status === 'ENABLED' || summary.ttl.status === 'ENABLING';
  const ttlAttribute = ttlOn ? summary.ttl.attribute : undefined;
  return {
    table: summary.name,
    keys: summary.keys.sortKey ? summary.keys : { partitionKey: summary.keys.partitionKey },
    indexKeys,
    itemCount: summary.itemCount,
    sizeBytes: summary.sizeBytes,
    ...(readCapacity ? { readCapacity } : {}),
    ...(writeCapacity ? { writeCapacity } : {}),
    indexes: summary.indexes.map((i) => ({ name: i.name, kind: i.kind, keys: i.keys })),
    ...(ttlAttribute ? { ttlAttribute } : {}),
  };
}

export async function describeForMigration(
  client: DynamoDBClient,
  table: string,
  signal: AbortSignal = new AbortController().signal,
): Promise<MigrationTableInfo> {
  // The details, not the cached summary: the TTL checks need DescribeTimeToLive's answer.
  return tableInfoOf((await tableDetails(client, table, signal)).summary);
}
