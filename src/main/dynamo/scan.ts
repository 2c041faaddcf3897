import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ReadRequest } from '../../shared/dynamo/read-request';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ResultSetStore } from '../core/context';
import type { OperationOutcome, OperationRun } from '../core/operations';
import type { ReadCursor } from './cursor';
import { runRead } from './query/run-read';
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
 * scan:start's read: the one read loop (query/run-read.ts), so the items go to the result set
 * from the response bytes (wire-encoder.ts), never through the SDK's deserializer, and paging,
 * budgets, cursors and cancel behave exactly as for query:start.
 */
export function runScan(
  client: DynamoDBClient,
  resultSets: ResultSetStore,
  request: ScanRequest,
  run: OperationRun,
): Promise<OperationOutcome> {
  const { target } = request;
  const read: ReadRequest = {
    operation: 'Scan',
    input: { TableName: target.table, ...(target.index ? { IndexName: target.index } : {}) },
  };
  return runRead(
    client,
    resultSets,
    {
      request: read,
      resultSetId: request.resultSetId,
      pageSize: request.pageSize,
      maxItems: request.maxItems,
      untilMatches: false,
      maxPages: Number.MAX_SAFE_INTEGER,
      cursor: request.cursor,
      itemCount: target.itemCount,
    },
    run,
  );
}
