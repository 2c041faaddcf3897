import type { TableChange, TableChangeKind } from '../../../../../shared/dynamo/table-change';
import type { TableSummary } from '../../../../../shared/ipc';

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

/** A change of that kind that starts from the table as it is (the form then edits it). */
export function initialChange(kind: TableChangeKind, summary: TableSummary): TableChange {
  const gsis = summary.indexes.filter((i) => i.kind === 'GSI');
  switch (kind) {
    case 'billing':
      return summary.billingMode === 'PAY_PER_REQUEST'
        ? { kind, mode: 'PROVISIONED', readCapacity: 5, writeCapacity: 5 }
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
          sortKey: { name: `GSI${n}SK`, type: 'S' },
          projection: { type: 'ALL' },
          ...(summary.billingMode === 'PROVISIONED' ? { readCapacity: 5, writeCapacity: 5 } : {}),
        },
      };
    }
    case 'deleteIndex':
      return { kind, name: gsis[0]?.name ?? '' };
    case 'ttl':
      return summary.ttl.status === 'ENABLED'
        ? { kind, enabled: false, attribute: summary.ttl.attribute ?? '' }
        : { kind, enabled: true, attribute: summary.ttl.attribute ?? 'expiresAt' };
    case 'stream':
      return summary.stream.enabled
        ? { kind, enabled: false }
        : { kind, enabled: true, viewType: 'NEW_AND_OLD_IMAGES' };
    case 'deletionProtection':
      return { kind, enabled: !summary.deletionProtection };
    case 'tableClass':
      return {
        kind,
        tableClass:
          summary.tableClass === 'STANDARD_INFREQUENT_ACCESS' ? 'STANDARD' : 'STANDARD_INFREQUENT_ACCESS',
      };
    case 'tags':
      return { kind, set: [{ key: '', value: '' }], remove: [] };
    case 'pitr':
      return { kind, enabled: summary.pointInTimeRecovery !== 'ENABLED' };
  }
}
