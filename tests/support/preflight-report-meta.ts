import type { ReportMeta } from '../../src/main/migration/report';

/** The meta of a pre-flight report from one complete pass over the items a test made. */
export function preflightReportMeta(table: string): ReportMeta {
  return {
    scanId: 's',
    table,
    startedAt: '',
    finishedAt: '',
    complete: true,
    segments: 1,
    tableItemCount: 0,
    consumedReadCapacity: 0,
  };
}
