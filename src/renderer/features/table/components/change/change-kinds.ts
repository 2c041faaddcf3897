import type { TableChange, TableChangeKind } from '../../../../../shared/dynamo/table-change';
import type { TableSummary } from '../../../../../shared/ipc';
import { streamViewTypeSchema, tableClassSchema } from '../../../../../shared/dynamo/table-definition';

export const CHANGE_KINDS: { kind: TableChangeKind; label: string }[] = [
  { kind: 'billing', label: 'Billing mode and capacity' },
  { kind: 'addIndex', label: 'Add a global index' },
  { kind: 'deleteIndex', label: 'Delete a global index' },
  { kind: 'ttl', label: 'Time to live' },
  { kind: 'stream', label: 'Streams' },
  { kind: 'deletionProtection', label: 'Deletion protection' },
  { kind: 'tableClass', label: 'Table class' },
  { kind: 'tags', label: 'Tags' },
  { kind: 'pitr', label: 'Point-in-time recovery' },
];

/**
 * The form of a change of that kind, filled in with the table as it is now: a switch shows the
 * setting the table has, capacity the capacity it has. Nothing is ready to apply until the user
 * changes something (`isUnchanged`), so neither a first look nor the form after "Changed." offers
 * a change the user did not ask for. A new index starts with a partition key only: a sort key is
 * the user's choice.
 */
export function initialChange(kind: TableChangeKind, summary: TableSummary): TableChange {
  const gsis = summary.indexes.filter((i) => i.kind === 'GSI');
  switch (kind) {
    case 'billing':
      return summary.billingMode === 'PAY_PER_REQUEST'
        ? { kind, mode: 'PAY_PER_REQUEST' }
        : {
            kind,
            mode: 'PROVISIONED',
            readCapacity: summary.readCapacity,
            writeCapacity: summary.writeCapacity,
          };
    case 'addIndex': {
      let n = gsis.length + 1;
      while (summary.indexes.some((i) => i.name === `GSI${n}`)) n += 1;
      return {
        kind,
        index: {
          name: `GSI${n}`,
          partitionKey: { name: `GSI${n}PK`, type: 'S' },
          projection: { type: 'ALL' },
          ...(summary.billingMode === 'PROVISIONED' ? { readCapacity: 5, writeCapacity: 5 } : {}),
        },
      };
    }
    case 'deleteIndex':
      return { kind, name: gsis[0]?.name ?? '' };
    case 'ttl':
      return {
        kind,
        enabled: isTtlOn(summary),
        attribute: summary.ttl.attribute ?? 'expiresAt',
      };
    case 'stream':
      return summary.stream.enabled
        ? {
            kind,
            enabled: true,
            viewType: streamViewTypeSchema.catch('NEW_AND_OLD_IMAGES').parse(summary.stream.viewType),
          }
        : { kind, enabled: false };
    case 'deletionProtection':
      return { kind, enabled: summary.deletionProtection };
    case 'tableClass':
      return { kind, tableClass: tableClassSchema.catch('STANDARD').parse(summary.tableClass) };
    case 'tags':
      return { kind, set: [{ key: '', value: '' }], remove: [] };
    case 'pitr':
      return { kind, enabled: summary.pointInTimeRecovery === 'ENABLED' };
  }
}

function isTtlOn(summary: TableSummary): boolean {
  return summary.ttl.status === 'ENABLED' || summary.ttl.status === 'ENABLING';
}

/**
 * Whether the form still shows the table as it is: a setting whose form starts from the table
 * (not a new index, an index to delete or tags) that the user has not changed yet.
 */
export function isUnchanged(change: TableChange, summary: TableSummary): boolean {
  if (change.kind === 'addIndex' || change.kind === 'deleteIndex' || change.kind === 'tags') return false;
  return JSON.stringify(change) === JSON.stringify(initialChange(change.kind, summary));
}
