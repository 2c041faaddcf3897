import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { buildReadRequest, ReadSpecError } from '../../../shared/dynamo/read-request';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { CopySource } from '../../../shared/ipc/copy';
import type { TableSummary } from '../../../shared/ipc/tables';
import type { ResultSetStore } from '../../resultsets/types';
import type { RateLimiter } from '../rate-limiter';
import { segmentedScan, type PagedRequest, type SegmentCursor, toPagedRequest } from '../read/segmented-read';
import { toSdkItem } from '../marshal';
import { readTargetOf } from '../table-metadata';
import type { SdkItem } from '../writes/put-items';

export interface SourcePage {
  items: SdkItem[];
  /** Scan/Query: the segment and where it goes on; a result set: the offset after the page. */
  segment: number;
  nextKey?: SegmentCursor['startKey'];
  offset?: number;
}

export interface SourceReader {
  /** Segments a Scan may run in (a Query or a result set: one). */
  segments(wanted: number): number;
  /** Reads from these places on, handing each page over before moving past it. */
  read(
    from: { cursors?: SegmentCursor[]; offset?: number },
    options: {
      signal: AbortSignal;
      limiter?: RateLimiter;
      /** What the limiter counts (a result set spends items whatever this says). */
      limiterUnit?: 'items' | 'capacity';
      onThrottle?(): void;
      /** Read a segment's next page while this one is written (see segmentedScan). */
      readAhead?: boolean;
      onPage(page: SourcePage): Promise<void>;
    },
  ): Promise<void>;
  notes: string[];
}

const WINDOW = 500;

/** The request a spec makes, in SDK form; refuses builder mistakes by field, as query:start does. */
export function pagedRequestOf(summary: TableSummary, source: CopySource): PagedRequest | undefined {
  if (!('spec' in source) || !source.spec) return undefined;
  let request;
  try {
    request = buildReadRequest(readTargetOf(summary), source.spec);
  } catch (error) {
    if (error instanceof ReadSpecError)
      throw new AppFailure(ErrorCodes.invalidInput, error.message, false, { field: error.field });
    throw error;
  }
  // A copy takes whole items: the read's projection is not applied (see notes).
  return toPagedRequest(request, { wholeItems: true });
}

/** The source as pages of SDK items: a Scan in parallel segments, one Query, or a result set's rows. */
export function sourceReader(
  client: DynamoDBClient,
  summary: TableSummary,
  source: CopySource,
  resultSets: ResultSetStore | undefined,
): SourceReader {
  const notes: string[] = [];
  if ('resultSetId' in source) {
    const store = resultSets;
    if (!store)
      throw new AppFailure(ErrorCodes.invalidInput, 'A result set can be copied only from the app.');
    return {
      notes,
      segments: () => 1,
      async read(from, options) {
        for (let offset = from.offset ?? 0; !options.signal.aborted;) {
          await options.limiter?.take(options.signal);
          const window = await store.window(source.resultSetId, offset, WINDOW);
          if (window.rows.length === 0) return;
          options.limiter?.spend(window.rows.length);
          offset += window.rows.length;
          await options.onPage({ items: window.rows.map(toSdkItem), segment: 0, offset });
        }
      },
    };
  }
  const request = pagedRequestOf(summary, source);
  const spec = 'spec' in source ? source.spec : undefined;
  if (spec?.projection && spec.projection.length > 0)
    notes.push("The read's projection was not applied: a copy takes whole items.");
  const index = spec?.index ? summary.indexes.find((i) => i.name === spec.index) : undefined;
  if (index && index.projection !== 'ALL')
    notes.push(
      `The index ${index.name} projects ${index.projection}: the copied items hold only the attributes it projects.`,
    );
  const isQuery = request?.operation === 'Query';
  return {
    notes,
    segments: (wanted) => (isQuery ? 1 : wanted),
    async read(from, options) {
      const cursors = (from.cursors ?? []).map((c) => ({ ...c }));
      await segmentedScan({
        client,
        table: summary.name,
        cursors: cursors.filter((c) => !c.done),
        totalSegments: cursors.length,
        signal: options.signal,
        limiter: options.limiter,
        limiterUnit: options.limiterUnit ?? 'items',
        request,
        readAhead: options.readAhead,
        onThrottle: () => options.onThrottle?.(),
        onPage: (page) => options.onPage({ items: page.items, segment: page.segment, nextKey: page.nextKey }),
      });
    },
  };
}
