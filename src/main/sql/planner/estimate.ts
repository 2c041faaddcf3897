import type { TableInfo } from '../../../shared/sql/catalog';
import type { FetchPlan } from '../../../shared/sql/plan';
import type { Access } from './access-path';

/** Eventually consistent reads: half a unit per 4 KB. */
const rcuFor = (bytes: number): number => Math.max(0.5, Math.ceil(bytes / 4096) * 0.5);

/**
 * Items and read capacity from DescribeTable's item count and size (approximate: DynamoDB
 * refreshes them about every six hours) and, for a Query, the items per partition seen in a
 * small sample of the table.
 */
export function estimate(table: TableInfo, access: Access, share?: number): FetchPlan['estimate'] {
  const average = table.itemCount > 0 ? table.sizeBytes / table.itemCount : 1024;
  const sizeNote = `DescribeTable: ${table.itemCount.toLocaleString('en-US')} items, ${(table.sizeBytes / 2 ** 20).toFixed(1)} MB (approximate)`;
  switch (access.operation) {
    case 'GetItem':
    case 'BatchGetItem': {
      const n = access.keys.length;
      return {
        itemsRead: n,
        itemsReturned: n,
        rcu: n * rcuFor(average),
        basis: `${n} key${n === 1 ? '' : 's'} × ~${Math.round(average)} B per item`,
      };
    }
    case 'Query': {
      const sampled = access.index ? table.indexItemsPerPartition?.[access.index] : table.itemsPerPartition;
      const perPartition = sampled ?? Math.min(table.itemCount, 100);
      const read = Math.min(
        table.itemCount || perPartition,
        Math.ceil(perPartition * access.partition.values.length),
      );
      const basis = sampled
        ? `~${perPartition.toFixed(1)} items per ${access.index ? `${access.index} ` : ''}partition, from a sample`
        : 'partition size unknown';
      return {
        itemsRead: read,
        itemsReturned: read,
        rcu: rcuFor(read * average),
        basis: `${basis}; ${sizeNote}`,
      };
    }
    case 'Scan': {
      const returned = Math.round(table.itemCount * (share ?? 1));
      return {
        itemsRead: table.itemCount,
        itemsReturned: returned,
        rcu: rcuFor(table.sizeBytes),
        basis: `a Scan reads the whole table; ${sizeNote}`,
      };
    }
  }
}
