import type { EntitySource } from '../../src/main/schema/accumulator';
import type { ReportHead } from '../../src/main/schema/report';

/** The head of a schema report from one complete, unsampled pass over the items a test made. */
export function reportHead(
  head: Pick<ReportHead, 'scanId' | 'table' | 'keys'> & Partial<ReportHead>,
  entitySource: EntitySource = { kind: 'keys' },
): ReportHead {
  return {
    startedAt: '',
    finishedAt: '',
    sampled: false,
    complete: true,
    tableItemCount: 0,
    draw: {
      mode: 'full',
      totalSegments: 1,
      segments: [0],
      pages: 1,
      consumedReadCapacity: 0,
      throttledRequests: 0,
      description: '',
    },
    entitySource,
    ...head,
  };
}
