import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { keyMismatch, type ItemMapper } from '../../../shared/dynamo/copy-mapping';
import type { KeyAttribute, TableDefinition } from '../../../shared/dynamo/table-definition';
import { definitionFromDescription } from '../../../shared/dynamo/table-definition-import';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { KeySchema } from '../../../shared/ipc/tables';
import type { OperationRun } from '../../core/operations';
import { tableSummary } from '../table-metadata';
import { checkDefinition, createTable } from '../table-admin/create-table';
import { listTags } from '../table-admin/tags';
import type { TableDetails } from '../table-metadata';

export const INCOMPATIBLE_KEYS = 'IncompatibleKeys';

export interface TargetSide {
  client: DynamoDBClient;
  table: string;
  /** For sentences: the connection's label. */
  label: string;
  create: boolean;
  includeTags: boolean;
}

/**
 * Makes sure the target can take the copied items before the first write: an existing table
 * must have the same keys (after renames), named in the sentence when it does not; a missing one
 * is created from the source's definition (keys, indexes, TTL, billing, optionally tags) by
 * table-admin's own createTable, which waits until it is ACTIVE.
 */
export async function prepareTarget(
  source: { client: DynamoDBClient; details: TableDetails },
  target: TargetSide,
  mapper: ItemMapper,
  run: OperationRun,
): Promise<{ keys: KeySchema; created: boolean; notes: string[] }> {
  const sourceKeys = source.details.summary.keys;
  let keys: KeySchema | undefined;
  try {
    keys = (await tableSummary(target.client, target.table, run.signal)).keys;
  } catch (error) {
    if ((error as { name?: string }).name !== 'ResourceNotFoundException') throw error;
  }
  if (keys) {
    const mismatch = keyMismatch(sourceKeys, keys, mapper, target.table);
    if (mismatch)
      throw new AppFailure(INCOMPATIBLE_KEYS, mismatch, false, { source: sourceKeys, target: keys });
    return { keys, created: false, notes: [] };
  }
  if (!target.create)
    throw new AppFailure(
      ErrorCodes.notFound,
      `The table ${target.table} does not exist on "${target.label}". Choose to create it from the source's definition, or name an existing table.`,
    );
  const definition = renamedDefinition(
    definitionFromDescription(source.details.raw, target.table).definition,
    mapper,
  );
  if (target.includeTags && source.details.summary.arn) {
    const found = await listTags(source.client, source.details.summary.arn, run.signal);
    definition.tags = found.tags;
  } else definition.tags = [];
  checkDefinition(definition);
  run.emit({
    type: 'progress',
    progress: { items: 0, pages: 0, consumedCapacity: 0, message: `Creating ${target.table}…` },
  });
  const result = await createTable(target.client, definition, run);
  return { keys: result.summary.keys, created: true, notes: result.notes };
}

/** The source's definition with every attribute it names as the mapping renames it. */
function renamedDefinition(definition: TableDefinition, mapper: ItemMapper): TableDefinition {
  const name = (n: string): string => mapper.nameOf(n) ?? n;
  const key = (k: KeyAttribute): KeyAttribute => ({ ...k, name: name(k.name) });
  const projection = (p: TableDefinition['globalIndexes'][number]['projection']) =>
    p.attributes ? { ...p, attributes: p.attributes.map(name) } : p;
  return {
    ...definition,
    partitionKey: key(definition.partitionKey),
    sortKey: definition.sortKey && key(definition.sortKey),
    globalIndexes: definition.globalIndexes.map((g) => ({
      ...g,
      partitionKey: key(g.partitionKey),
      sortKey: g.sortKey && key(g.sortKey),
      morePartitionKeys: g.morePartitionKeys?.map(key),
      moreSortKeys: g.moreSortKeys?.map(key),
      projection: projection(g.projection),
    })),
    localIndexes: definition.localIndexes.map((l) => ({
      ...l,
      sortKey: key(l.sortKey),
      projection: projection(l.projection),
    })),
    ttlAttribute: definition.ttlAttribute && name(definition.ttlAttribute),
  };
}
