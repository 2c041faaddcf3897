import type { CopyReport } from '../../src/shared/ipc/copy';

/** A finished copy of three items into `target`, which the copy created, on one connection. */
export function copyReport(connectionId: string, source: string, target: string): CopyReport {
  return {
    copyId: `copy-${target}`,
    source: { connectionId, table: source },
    target: { connectionId, table: target },
    created: true,
    complete: true,
    itemsRead: 3,
    itemsWritten: 3,
    itemsSkipped: 0,
    itemsFailed: 0,
    failures: [],
    notes: [],
  };
}
