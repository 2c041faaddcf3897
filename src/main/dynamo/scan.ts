import { DescribeTableCommand, ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { Progress } from '../../shared/ipc/operations';
import type { ResultSetStore } from '../core/context';
import type { OperationOutcome, OperationRun } from '../core/operations';
import { toAppError } from '../core/to-app-error';
import { encodeCursor, type ReadCursor } from './cursor';
import { fromSdkItem, toSdkItem } from './marshal';
import { keyAttributesOf, toSummary } from './tables';

export const DEFAULT_MAX_ITEMS = 1000;
export const DEFAULT_PAGE_SIZE = 100;

export interface ScanTarget {
  table: string;
  index?: string;
  /** Key attributes (index keys first) so result-set columns start with them. */
  keyAttributes: string[];
  /** DynamoDB's approximate item count of the table or index; 0 when unknown. */
  itemCount: number;
}

export interface ScanRequest {
  target: ScanTarget;
  resultSetId: string;
  pageSize: number;
  maxItems: number;
  /** Where an earlier scan stopped; absent to start at the beginning. */
  cursor?: ReadCursor;
}

/**
 * What a scan needs to know before it starts. Only a missing table or index is fatal: without
 * DescribeTable permission the scan still runs, just without key-first columns or a fraction.
 */
export async function scanTarget(
  client: DynamoDBClient,
  table: string,
  index: string | undefined,
  signal: AbortSignal,
): Promise<ScanTarget> {
  let described;
  try {
    described = await client.send(new DescribeTableCommand({ TableName: table }), { abortSignal: signal });
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceNotFoundException' || signal.aborted) throw error;
    return { table, index, keyAttributes: [], itemCount: 0 };
  }
  const summary = toSummary(described.Table ?? { TableName: table }, undefined, undefined);
  const indexInfo = index === undefined ? undefined : summary.indexes.find((i) => i.name === index);
  if (index !== undefined && !indexInfo) {
    throw new AppFailure(ErrorCodes.notFound, `The table ${table} has no index named ${index}.`, false, {
      table,
      index,
    });
  }
  return {
    table,
    index,
    keyAttributes: keyAttributesOf(summary, index),
    itemCount: (indexInfo ? indexInfo.itemCount : summary.itemCount) ?? 0,
  };
}

/**
 * Scans page by page into a result set, bounded by maxItems: each request asks for at most the
 * items still allowed, so the returned cursor sits exactly after the last stored row and a
 * "load more" neither skips nor repeats items. Cancelling keeps what was stored and returns the
 * cursor to resume from.
 */
export async function runScan(
  client: DynamoDBClient,
  resultSets: ResultSetStore,
  request: ScanRequest,
  run: OperationRun,
): Promise<OperationOutcome> {
  const { target, resultSetId, pageSize, maxItems } = request;
  let startKey: Item | undefined = request.cursor?.key;
  let scanned = request.cursor?.scanned ?? 0;
  const progress: Progress = { items: 0, pages: 0, consumedCapacity: 0, scanned: 0 };
  // A function, not a property read: the signal flips while we await, which narrowing cannot see.
  const isCancelled = (): boolean => run.signal.aborted;
  const cursor = (): string | undefined =>
    startKey ? encodeCursor({ table: target.table, index: target.index, key: startKey, scanned }) : undefined;

  while (progress.items < maxItems && !isCancelled()) {
    let page;
    try {
      page = await client.send(
        new ScanCommand({
          TableName: target.table,
          IndexName: target.index,
          Limit: Math.min(pageSize, maxItems - progress.items),
          ExclusiveStartKey: startKey ? toSdkItem(startKey) : undefined,
          ReturnConsumedCapacity: 'TOTAL',
        }),
        { abortSignal: run.signal },
      );
    } catch (error) {
      if (isCancelled()) break;
      // Keep the AWS name as the code, and add where to resume once the cause is fixed.
      const appError = toAppError(error);
      throw new AppFailure(appError.code, appError.message, appError.retryable, {
        ...appError.details,
        cursor: cursor(),
      });
    }
    const rows = (page.Items ?? []).map(fromSdkItem);
    const total = await resultSets.append(resultSetId, rows);
    startKey = page.LastEvaluatedKey ? fromSdkItem(page.LastEvaluatedKey) : undefined;
    scanned += page.ScannedCount ?? rows.length;
    progress.items += rows.length;
    progress.pages += 1;
    progress.consumedCapacity += page.ConsumedCapacity?.CapacityUnits ?? 0;
    progress.scanned = (progress.scanned ?? 0) + (page.ScannedCount ?? rows.length);
    if (!startKey) progress.fraction = 1;
    else if (target.itemCount > 0) progress.fraction = Math.min(1, scanned / target.itemCount);
    run.emit({ type: 'page', resultSetId, added: rows.length, total });
    run.emit({ type: 'progress', progress: { ...progress } });
    if (!startKey) break;
  }
  return { progress: { ...progress }, cursor: cursor(), value: { resultSetId } };
}
