import { z } from 'zod';
import type { TableSummary } from '../ipc/tables';
import { keyAttributes, keySchemaElements } from './key-model';
import {
  globalIndexSchema,
  type KeyAttribute,
  projectionOf,
  streamViewTypeSchema,
  tableClassSchema,
  tagSchema,
} from './table-definition';
import type { ControlCall } from './table-request-text';
import {
  attributeNameProblem,
  capacityProblem,
  indexKeyProblems,
  tableNameProblem,
  tagProblem,
  type FieldProblem,
} from './table-validation';

/** One change to an existing table: the Overview's Change section sends one at a time. */
export const tableChangeSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('billing'),
    mode: z.enum(['PAY_PER_REQUEST', 'PROVISIONED']),
    /** Provisioned only; the table's GSIs get the same. */
    readCapacity: z.number().optional(),
    writeCapacity: z.number().optional(),
  }),
  z.object({ kind: z.literal('addIndex'), index: globalIndexSchema }),
  z.object({ kind: z.literal('deleteIndex'), name: z.string().max(255) }),
  z.object({ kind: z.literal('ttl'), enabled: z.boolean(), attribute: z.string().max(1024) }),
  z.object({ kind: z.literal('stream'), enabled: z.boolean(), viewType: streamViewTypeSchema.optional() }),
  z.object({ kind: z.literal('deletionProtection'), enabled: z.boolean() }),
  z.object({ kind: z.literal('tableClass'), tableClass: tableClassSchema }),
  z.object({
    kind: z.literal('tags'),
    set: z.array(tagSchema).max(50),
    remove: z.array(z.string().max(128)).max(50),
  }),
  z.object({ kind: z.literal('pitr'), enabled: z.boolean() }),
]);
export type TableChange = z.infer<typeof tableChangeSchema>;
export type TableChangeKind = TableChange['kind'];

/** DynamoDB Local answers with this region in every ARN. */
export function isDynamoLocal(summary: Pick<TableSummary, 'arn'>): boolean {
  return summary.arn?.split(':')[3] === 'ddblocal';
}

/**
 * What DynamoDB Local does not implement (checked against DynamoDB Local 3.x): said plainly
 * in the UI, and refused in main before a request that would fail or silently do nothing.
 */
export const NOT_ON_DYNAMODB_LOCAL: Partial<Record<TableChangeKind, string>> = {
  pitr: 'DynamoDB Local does not implement point-in-time recovery, so it cannot be turned on or off here.',
  tags: 'DynamoDB Local does not implement tags ("Tagging is not currently supported"), so they cannot be read or changed here.',
  tableClass:
    'DynamoDB Local ignores the table class (every table behaves as Standard), so it cannot be changed here.',
};

/** The type each key attribute of the table and its indexes already has. */
function keyTypesOf(summary: TableSummary): Map<string, KeyAttribute['type']> {
  const types = new Map<string, KeyAttribute['type']>();
  for (const keys of [summary.keys, ...summary.indexes.map((i) => i.keys)])
    for (const attribute of keyAttributes(keys)) types.set(attribute.name, attribute.type);
  return types;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * What a change will cost or lock in, in one sentence, shown before it is sent. Limits are
 * AWS's published ones; DynamoDB Local enforces none of them.
 */
export function changeConsequence(change: TableChange, summary: TableSummary): string {
  const table = summary.name;
  const gsis = summary.indexes.filter((i) => i.kind === 'GSI').length;
  switch (change.kind) {
    case 'billing':
      if (change.mode === 'PAY_PER_REQUEST')
        return summary.billingMode === 'PAY_PER_REQUEST'
          ? `${table} is already on-demand.`
          : `${table} becomes on-demand: you pay per request instead of per provisioned hour. AWS allows only a few switches to on-demand per table in a rolling 24 hours (four at the time of writing); switching back to provisioned is allowed any time.`;
      return summary.billingMode === 'PAY_PER_REQUEST'
        ? `${table} becomes provisioned at ${change.readCapacity ?? '?'} RCU / ${change.writeCapacity ?? '?'} WCU${gsis > 0 ? ` (each of its ${plural(gsis, 'global index')} gets the same)` : ''}: that capacity is billed every hour whether used or not, and requests beyond it are throttled.`
        : `${table} changes to ${change.readCapacity ?? '?'} RCU / ${change.writeCapacity ?? '?'} WCU${gsis > 0 ? ` (its global indexes too)` : ''}, billed by the hour. Decreases are limited on AWS (up to 27 a day per table), so a decrease made now may be hard to repeat today.`;
    case 'addIndex':
      return `Adds the global index ${change.index.name}: DynamoDB backfills it with every existing item that has its key attributes, which consumes write capacity (billed as writes on on-demand tables) and can take from minutes to hours on a large table. Only one index can be added or deleted per request, and the index cannot be queried until it is ACTIVE.`;
    case 'deleteIndex':
      return `Deletes the index ${change.name}: queries on it stop working at once and it cannot be undone; recreating it means a full backfill again.`;
    case 'ttl':
      return change.enabled
        ? `DynamoDB will delete items of ${table} whose "${change.attribute}" holds an epoch-seconds time in the past, usually within a few days, without charging writes. On AWS the setting takes up to an hour to apply, and TTL cannot be changed again during that hour.`
        : `DynamoDB stops deleting expired items of ${table}. On AWS this takes up to an hour, and TTL cannot be turned on again (with any attribute) during that hour.`;
    case 'stream':
      if (!change.enabled)
        return `The stream of ${table} stops recording writes; its records stay readable for 24 hours, then it is gone. Turning streams on again creates a new stream with a new ARN.`;
      return summary.stream.enabled
        ? `Changing the view type turns the stream off and on again: a new stream with a new ARN records ${change.viewType ?? 'NEW_AND_OLD_IMAGES'}, and readers of the old one must move to it.`
        : `Every write to ${table} is recorded for 24 hours in a new stream (${change.viewType ?? 'NEW_AND_OLD_IMAGES'}). Writing costs nothing extra; reading the stream is billed per read request (free for Lambda triggers).`;
    case 'deletionProtection':
      return change.enabled
        ? `Nobody can delete ${table} (here, in the console or with the API) until deletion protection is turned off again.`
        : `${table} can be deleted again by anyone allowed to call DeleteTable.`;
    case 'tableClass':
      return change.tableClass === 'STANDARD_INFREQUENT_ACCESS'
        ? `Standard-IA stores data for about 60% less but charges about 25% more per read and write. AWS allows two table-class changes per table in 30 days.`
        : `Standard charges less per read and write than Standard-IA but more for storage. AWS allows two table-class changes per table in 30 days.`;
    case 'tags':
      return `Tags change only metadata (cost allocation, access control): ${plural(change.set.length, 'tag')} set, ${plural(change.remove.length, 'tag')} removed; data and performance are not affected.`;
    case 'pitr':
      return change.enabled
        ? `DynamoDB keeps continuous backups of ${table} so it can be restored to any second of the last 35 days, billed per GB-month of table size.`
        : `Continuous backups of ${table} stop and the restore window is lost; turning it on again starts a new window from then.`;
  }
}

/** A problem the form can show at its field, or DynamoDB would refuse, before anything is sent. */
export function changeProblems(change: TableChange, summary: TableSummary): FieldProblem[] {
  const out: FieldProblem[] = [];
  const add = (field: string, message: string | undefined): void => {
    if (message) out.push({ field, message });
  };
  const local = isDynamoLocal(summary) ? NOT_ON_DYNAMODB_LOCAL[change.kind] : undefined;
  if (local) add(change.kind, local);
  switch (change.kind) {
    case 'billing':
      if (change.mode === 'PROVISIONED') {
        add('readCapacity', capacityProblem(change.readCapacity, 'Read capacity'));
        add('writeCapacity', capacityProblem(change.writeCapacity, 'Write capacity'));
        if (
          summary.billingMode === 'PROVISIONED' &&
          change.readCapacity === summary.readCapacity &&
          change.writeCapacity === summary.writeCapacity
        )
          add('billing', 'That is the capacity the table already has.');
      } else if (summary.billingMode === 'PAY_PER_REQUEST') add('billing', 'The table is already on-demand.');
      break;
    case 'addIndex': {
      const { index } = change;
      add('index.name', tableNameProblem(index.name, 'An index name'));
      if (summary.indexes.some((i) => i.name === index.name))
        add('index.name', `The table already has an index named "${index.name}".`);
      // Each attribute has one type in every key of the table: DynamoDB refuses a second one.
      out.push(...indexKeyProblems(index, 'index', keyTypesOf(summary)));
      if (index.projection.type === 'INCLUDE' && (index.projection.attributes ?? []).length === 0)
        add('index.projection', 'INCLUDE needs at least one attribute; choose KEYS_ONLY to project none.');
      if (summary.billingMode === 'PROVISIONED') {
        add('index.readCapacity', capacityProblem(index.readCapacity, "The index's read capacity"));
        add('index.writeCapacity', capacityProblem(index.writeCapacity, "The index's write capacity"));
      }
      if (summary.indexes.filter((i) => i.kind === 'GSI').length >= 20)
        add('index', 'The table already has 20 global indexes, the most DynamoDB allows by default.');
      if (summary.indexes.some((i) => i.kind === 'GSI' && i.status !== undefined && i.status !== 'ACTIVE'))
        add('index', 'Another index is still being created or deleted; wait until it is done.');
      break;
    }
    case 'deleteIndex': {
      const index = summary.indexes.find((i) => i.name === change.name);
      if (!index) add('index', `The table has no index named "${change.name}".`);
      else if (index.kind === 'LSI')
        add('index', 'A local index cannot be deleted: it lives as long as the table.');
      break;
    }
    case 'ttl':
      add('attribute', attributeNameProblem(change.attribute.trim(), 'The TTL attribute'));
      if (change.enabled && summary.ttl.status === 'ENABLED' && summary.ttl.attribute !== change.attribute)
        add(
          'attribute',
          `TTL is on with "${summary.ttl.attribute ?? ''}"; turn it off first, then on with the new attribute (on AWS, an hour later).`,
        );
      else if (change.enabled === (summary.ttl.status === 'ENABLED'))
        add('ttl', `TTL is already ${change.enabled ? 'on' : 'off'}.`);
      break;
    case 'stream':
      if (!change.enabled && !summary.stream.enabled) add('stream', 'Streams are already off.');
      if (change.enabled && summary.stream.enabled && summary.stream.viewType === change.viewType)
        add('stream', `The stream already records ${change.viewType ?? ''}.`);
      break;
    case 'deletionProtection':
      if (change.enabled === summary.deletionProtection)
        add('deletionProtection', `Deletion protection is already ${change.enabled ? 'on' : 'off'}.`);
      break;
    case 'tags': {
      const seen = new Set<string>();
      change.set.forEach((tag, i) => add(`tags.${i}`, tagProblem(tag.key, tag.value, seen)));
      if (change.set.length === 0 && change.remove.length === 0) add('tags', 'Nothing to change.');
      break;
    }
    case 'tableClass':
      if ((summary.tableClass ?? 'STANDARD') === change.tableClass && !local)
        add('tableClass', 'That is the table class the table already has.');
      break;
    case 'pitr':
      if (summary.pointInTimeRecovery === (change.enabled ? 'ENABLED' : 'DISABLED'))
        add('pitr', `Point-in-time recovery is already ${change.enabled ? 'on' : 'off'}.`);
      break;
  }
  return out;
}

/**
 * The requests that make a change, in order. A stream's view type cannot change while it is
 * on, so that change is two UpdateTables (off, then on); main waits for ACTIVE between calls.
 */
export function changeCalls(change: TableChange, summary: TableSummary): ControlCall[] {
  const TableName = summary.name;
  const update = (input: Record<string, unknown>): ControlCall => ({
    operation: 'UpdateTable',
    input: { TableName, ...input },
  });
  switch (change.kind) {
    case 'billing': {
      if (change.mode === 'PAY_PER_REQUEST') return [update({ BillingMode: 'PAY_PER_REQUEST' })];
      const ProvisionedThroughput = {
        ReadCapacityUnits: change.readCapacity ?? 1,
        WriteCapacityUnits: change.writeCapacity ?? 1,
      };
      const gsis = summary.indexes.filter((i) => i.kind === 'GSI');
      return [
        update({
          BillingMode: 'PROVISIONED',
          ProvisionedThroughput,
          // A provisioned table's GSIs need capacity of their own; they get the table's.
          ...(gsis.length > 0
            ? {
                GlobalSecondaryIndexUpdates: gsis.map((g) => ({
                  Update: { IndexName: g.name, ProvisionedThroughput },
                })),
              }
            : {}),
        }),
      ];
    }
    case 'addIndex': {
      const { index } = change;
      return [
        update({
          AttributeDefinitions: keyAttributes(index).map((a) => ({
            AttributeName: a.name,
            AttributeType: a.type,
          })),
          GlobalSecondaryIndexUpdates: [
            {
              Create: {
                IndexName: index.name,
                KeySchema: keySchemaElements(index),
                Projection: projectionOf(index.projection),
                ...(summary.billingMode === 'PROVISIONED'
                  ? {
                      ProvisionedThroughput: {
                        ReadCapacityUnits: index.readCapacity ?? 1,
                        WriteCapacityUnits: index.writeCapacity ?? 1,
                      },
                    }
                  : {}),
              },
            },
          ],
        }),
      ];
    }
    case 'deleteIndex':
      return [update({ GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: change.name } }] })];
    case 'ttl':
      return [
        {
          operation: 'UpdateTimeToLive',
          input: {
            TableName,
            TimeToLiveSpecification: { Enabled: change.enabled, AttributeName: change.attribute.trim() },
          },
        },
      ];
    case 'stream': {
      const on = update({
        StreamSpecification: { StreamEnabled: true, StreamViewType: change.viewType ?? 'NEW_AND_OLD_IMAGES' },
      });
      const off = update({ StreamSpecification: { StreamEnabled: false } });
      if (!change.enabled) return [off];
      return summary.stream.enabled ? [off, on] : [on];
    }
    case 'deletionProtection':
      return [update({ DeletionProtectionEnabled: change.enabled })];
    case 'tableClass':
      return [update({ TableClass: change.tableClass })];
    case 'tags': {
      const ResourceArn = summary.arn ?? TableName;
      return [
        ...(change.set.length > 0
          ? [
              {
                operation: 'TagResource' as const,
                input: { ResourceArn, Tags: change.set.map((t) => ({ Key: t.key, Value: t.value })) },
              },
            ]
          : []),
        ...(change.remove.length > 0
          ? [{ operation: 'UntagResource' as const, input: { ResourceArn, TagKeys: change.remove } }]
          : []),
      ];
    }
    case 'pitr':
      return [
        {
          operation: 'UpdateContinuousBackups',
          input: {
            TableName,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: change.enabled },
          },
        },
      ];
  }
}
