import { buildReadRequest, ReadSpecError } from '../../../shared/dynamo/read-request';
import { viewKeyNames } from '../../../shared/dynamo/key-model';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { z } from 'zod';
import type { queryStartInput, ReadSpec } from '../../../shared/ipc/query';
import type { CoreContext } from '../../core/context';
import { decodeCursor } from '../cursor';
import { withDeadline } from '../deadline';
import { keyAttributesOf, readTargetOf, tableSummary } from '../table-metadata';
import type { ReadScope } from '../../resultsets/read-match';
import type { IndexInfo, TableSummary } from '../../../shared/ipc/tables';
import { runRead } from './run-read';

type QueryStartInput = z.output<typeof queryStartInput>;

export const DEFAULT_QUERY_ITEMS = 100;
export const DEFAULT_UNTIL_MATCHES_PAGES = 500;

/**
 * query:start — builds the request from the spec (refusing builder mistakes by field before
 * anything is sent), prepares the result set and runs the read as an operation.
 */
export async function startRead(
  ctx: CoreContext,
  input: QueryStartInput,
): Promise<{ resultSetId: string; operation: 'Query' | 'Scan' }> {
  const { connectionId, table, requestId, spec } = input;
  if (ctx.operations.isRunning(requestId))
    throw new AppFailure(ErrorCodes.invalidInput, `Request ${requestId} is already running.`);
  const client = await ctx.clients.dynamo(connectionId);
  const info = await withDeadline(30_000, `looking up ${table}`, (signal) =>
    tableSummary(client, table, signal),
  );
  let request;
  try {
    request = buildReadRequest(readTargetOf(info), spec);
  } catch (error) {
    if (error instanceof ReadSpecError)
      throw new AppFailure(ErrorCodes.invalidInput, error.message, false, { field: error.field });
    throw error;
  }
  const cursor =
    input.cursor === undefined ? undefined : decodeCursor(input.cursor, { table, index: spec.index });
  const indexInfo = spec.index ? info.indexes.find((i) => i.name === spec.index) : undefined;
  let resultSetId = input.resultSetId;
  if (resultSetId === undefined) {
    resultSetId = await ctx.resultSets.create({
      connectionId,
      table,
      keyAttributes: keyAttributesOf(info, spec.index),
      viewKeys: viewKeyNames(info.keys, indexInfo?.keys),
      scope: readScope(info, spec, indexInfo),
    });
  } else {
    await ctx.resultSets.window(resultSetId, 0, 0);
  }
  const maxItems = input.maxItems ?? DEFAULT_QUERY_ITEMS;
  const job = {
    request,
    resultSetId,
    pageSize: input.pageSize ?? Math.min(maxItems, 1000),
    maxItems,
    untilMatches: input.untilMatches ?? false,
    maxPages: input.maxPages ?? (input.untilMatches ? DEFAULT_UNTIL_MATCHES_PAGES : 100_000),
    cursor,
    itemCount: (indexInfo ? indexInfo.itemCount : info.itemCount) ?? 0,
  };
  ctx.operations.start(requestId, (run) => runRead(client, ctx.resultSets, job, run));
  return { resultSetId, operation: request.operation };
}

/** What the result set needs to take in the writes DynoTable makes later (see resultsets/read-match.ts). */
function readScope(info: TableSummary, spec: ReadSpec, index: IndexInfo | undefined): ReadScope {
  const { partitionKey, sortKey } = info.keys;
  const projection = index?.projection;
  return {
    tableKeys: [partitionKey.name, ...(sortKey ? [sortKey.name] : [])],
    spec,
    ...(index ? { indexKeys: index.keys } : {}),
    ...(index && projection !== 'ALL'
      ? {
          indexProjection: {
            isKeysOnly: projection === 'KEYS_ONLY',
            attributes: index.projectedAttributes ?? [],
          },
        }
      : {}),
  };
}
