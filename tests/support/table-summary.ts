import type { TableSummary } from '../../src/shared/ipc/tables';

/** An ACTIVE on-demand table with a string partition key `pk` and nothing else, changed by `patch`. */
export function tableSummary(name: string, patch: Partial<TableSummary> = {}): TableSummary {
  return {
    name,
    status: 'ACTIVE',
    keys: { partitionKey: { name: 'pk', type: 'S' } },
    indexes: [],
    billingMode: 'PAY_PER_REQUEST',
    itemCount: 0,
    sizeBytes: 0,
    ttl: { status: 'DISABLED' },
    stream: { enabled: false },
    pointInTimeRecovery: 'DISABLED',
    deletionProtection: false,
    ...patch,
  };
}
