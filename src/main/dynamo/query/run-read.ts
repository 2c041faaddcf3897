import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ReadRequest } from '../../../shared/dynamo/read-request';
import { AppFailure } from '../../../shared/errors';
import { FIRST_WINDOW_ROWS, type Progress } from '../../../shared/ipc/operations';
import type { ResultSetStore } from '../../resultsets/types';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import { toAppError } from '../../core/to-app-error';
import { encodeCursor, type ReadCursor } from '../cursor';
import { segmentedScan, type SegmentCursor, toPagedRequest } from '../read/segmented-read';

/** A call, not a property read, so an earlier check does not narrow it to false. */
const isAborted = (signal: AbortSignal): boolean => signal.aborted;

/**
 * The SDK gives up on a throttled page after its own attempts; the Items tab retries it this many
 * times more (saying so in the progress line), then shows the error with a cursor to go on from.
 */
const THROTTLE_RETRIES = 5;

export interface ReadJob {
  request: ReadRequest;
  resultSetId: string;
  pageSize: number;
  /** Matching items wanted in this call. */
  maxItems: number;
  /** Keep going past empty filtered pages until maxItems match (bounded by maxPages). */
  untilMatches: boolean;
  maxPages: number;
  cursor?: ReadCursor;
  /** Approximate item count of the table or index, for the progress fraction; 0 when unknown. */
  itemCount: number;
}

/**
 * Reads page by page into a result set, on the one read engine (read/segmented-read.ts): one
 * segment, each response's bytes handed to the result-set worker, which encodes the items from
 * them. Each request asks for at most the items still wanted, so the cursor sits exactly after
 * the last stored row and "load more" neither skips nor repeats. Without untilMatches a call
 * evaluates at most maxItems items (a filter may keep fewer); with it, the read goes on until
 * maxItems match, the table ends, or maxPages requests were made.
 */
export async function runRead(
  client: DynamoDBClient,
  resultSets: ResultSetStore,
  job: ReadJob,
  run: OperationRun,
): Promise<OperationOutcome> {
  const { request, resultSetId, pageSize, maxItems } = job;
  const table = request.input.TableName;
  const index = request.input.IndexName;
  const position: SegmentCursor = { segment: 0, startKey: job.cursor?.key, done: false };
  let scannedTotal = job.cursor?.scanned ?? 0;
  const progress: Progress = { items: 0, pages: 0, consumedCapacity: 0, scanned: 0 };
  const cursor = (): string | undefined =>
    position.startKey
      ? encodeCursor({ table, index, key: position.startKey, scanned: scannedTotal })
      : undefined;
  const budget = (): number => {
    const wanted = maxItems - progress.items;
    const evaluated = job.untilMatches ? wanted : maxItems - (progress.scanned ?? 0);
    return Math.min(pageSize, wanted, evaluated);
  };

  if (budget() > 0 && job.maxPages > 0) {
    try {
      await segmentedScan({
        client,
        table,
        index,
        cursors: [position],
        totalSegments: 1,
        signal: run.signal,
        request: toPagedRequest(request),
        items: 'result-set',
        resultSet: {
          store: resultSets,
          id: resultSetId,
          firstRows: () => (job.cursor || progress.items > 0 ? 0 : FIRST_WINDOW_ROWS),
        },
        pageLimit: budget,
        pagesPerSegment: job.maxPages,
        maxThrottleRetries: THROTTLE_RETRIES,
        onRetry: (retry, waitMs) =>
          run.emit({
            type: 'progress',
            progress: {
              ...progress,
              message: `DynamoDB is throttling; waiting ${waitMs} ms (retry ${retry}).`,
            },
          }),
        onPage: async (page) => {
          const added = page.items.length;
          // A fresh read's first rows ride on its first page event: the grid paints them at once.
          const isFirst = added > 0 && progress.items === 0 && page.items.total === added;
          const first = isFirst
            ? ((await page.items.first) ?? (await resultSets.window(resultSetId, 0, FIRST_WINDOW_ROWS)))
            : undefined;
          scannedTotal += page.scannedCount;
          progress.items += added;
          progress.pages += 1;
          progress.scanned = (progress.scanned ?? 0) + page.scannedCount;
          progress.consumedCapacity += page.consumed;
          if (!page.nextKey) progress.fraction = 1;
          else if (job.itemCount > 0 && request.operation === 'Scan')
            progress.fraction = Math.min(1, scannedTotal / job.itemCount);
          if (added > 0)
            run.emit({
              type: 'page',
              resultSetId,
              added,
              total: page.items.total,
              ...(first ? { first: { rows: first.rows, columns: first.columns } } : {}),
            });
          run.emit({ type: 'progress', progress: { ...progress } });
          return budget() > 0;
        },
      });
    } catch (error) {
      // A cancel ends as cancelled (the registry says so), with the cursor of the last stored page.
      if (!isAborted(run.signal)) {
        const appError = toAppError(error);
        throw new AppFailure(appError.code, appError.message, appError.retryable, {
          ...appError.details,
          cursor: cursor(),
        });
      }
    }
  }
  return { progress: { ...progress }, cursor: cursor(), value: { resultSetId } };
}
