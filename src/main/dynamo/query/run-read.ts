import {
  QueryCommand,
  ScanCommand,
  type DynamoDBClient,
  type QueryCommandOutput,
  type ScanCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import type { ReadRequest } from '../../../shared/dynamo/read-request';
import { AppFailure } from '../../../shared/errors';
import type { Progress } from '../../../shared/ipc/operations';
import type { ResultSetStore, WireAppend } from '../../resultsets/types';
import type { OperationOutcome, OperationRun } from '../../core/operations';
import { toAppError } from '../../core/to-app-error';
import { encodeCursor, type ReadCursor } from '../cursor';
import { fromSdkItem, toSdkItem } from '../marshal';
import { withBackoff } from '../../core/retry';
import { wireItemsMiddleware, wireItemsStep, type WireStash } from './wire-items';

/** Read through a call: the middleware fills the stash inside client.send, which flow analysis cannot see. */
const readStash = (stash: WireStash): WireAppend | undefined => stash.page;

/** A call, not a property read, so the loop's earlier check does not narrow it to false. */
const isAborted = (signal: AbortSignal): boolean => signal.aborted;

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

function send(
  client: DynamoDBClient,
  request: ReadRequest,
  startKey: Item | undefined,
  limit: number,
  signal: AbortSignal,
  wire: { store: ResultSetStore; resultSetId: string; stash: WireStash },
) {
  const input = {
    ...request.input,
    ExpressionAttributeValues: request.input.ExpressionAttributeValues
      ? toSdkItem(request.input.ExpressionAttributeValues)
      : undefined,
    ExclusiveStartKey: startKey ? toSdkItem(startKey) : undefined,
    Limit: limit,
    ReturnConsumedCapacity: 'TOTAL' as const,
  };
  const options = { abortSignal: signal };
  if (request.operation === 'Query') {
    const query = new QueryCommand(input);
    query.middlewareStack.add(wireItemsMiddleware(wire.store, wire.resultSetId, wire.stash), wireItemsStep);
    return client.send(query, options);
  }
  const scan = new ScanCommand(input);
  scan.middlewareStack.add(wireItemsMiddleware(wire.store, wire.resultSetId, wire.stash), wireItemsStep);
  return client.send(scan, options);
}

/**
 * Reads page by page into a result set. Each request asks for at most the items still wanted,
 * so the cursor sits exactly after the last stored row and "load more" neither skips nor repeats.
 * Without untilMatches a call evaluates at most maxItems items (a filter may keep fewer); with
 * it, the read goes on until maxItems match, the table ends, or maxPages requests were made.
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
  let startKey: Item | undefined = job.cursor?.key;
  let scannedTotal = job.cursor?.scanned ?? 0;
  const progress: Progress = { items: 0, pages: 0, consumedCapacity: 0, scanned: 0 };
  const stash: WireStash = {};
  const cursor = (): string | undefined =>
    startKey ? encodeCursor({ table, index, key: startKey, scanned: scannedTotal }) : undefined;
  const budget = (): number => {
    const wanted = maxItems - progress.items;
    const evaluated = job.untilMatches ? wanted : maxItems - (progress.scanned ?? 0);
    return Math.min(pageSize, wanted, evaluated);
  };

  while (budget() > 0 && progress.pages < job.maxPages && !run.signal.aborted) {
    let page: QueryCommandOutput | ScanCommandOutput;
    try {
      stash.page = undefined;
      page = await withBackoff(
        () =>
          send(client, request, startKey, budget(), run.signal, { store: resultSets, resultSetId, stash }),
        {
          signal: run.signal,
          onThrottle: (attempt, waitMs) =>
            run.emit({
              type: 'progress',
              progress: {
                ...progress,
                message: `DynamoDB is throttling; waiting ${waitMs} ms (retry ${attempt}).`,
              },
            }),
        },
      );
    } catch (error) {
      if (isAborted(run.signal)) break;
      const appError = toAppError(error);
      throw new AppFailure(appError.code, appError.message, appError.retryable, {
        ...appError.details,
        cursor: cursor(),
      });
    }
    // Items went to the result set from the response bytes (wire-items.ts); the SDK only parsed the rest.
    const wirePage = readStash(stash);
    const added = wirePage?.items ?? 0;
    const total = added > 0 ? wirePage?.total : undefined;
    startKey = page.LastEvaluatedKey ? fromSdkItem(page.LastEvaluatedKey) : undefined;
    const scanned = page.ScannedCount ?? added;
    scannedTotal += scanned;
    progress.items += added;
    progress.pages += 1;
    progress.scanned = (progress.scanned ?? 0) + scanned;
    progress.consumedCapacity += page.ConsumedCapacity?.CapacityUnits ?? 0;
    if (!startKey) progress.fraction = 1;
    else if (job.itemCount > 0 && request.operation === 'Scan')
      progress.fraction = Math.min(1, scannedTotal / job.itemCount);
    if (total !== undefined) run.emit({ type: 'page', resultSetId, added, total });
    run.emit({ type: 'progress', progress: { ...progress } });
    if (!startKey) break;
  }
  return { progress: { ...progress }, cursor: cursor(), value: { resultSetId } };
}
