import { ListTablesCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { TableSummary } from '../../shared/ipc/tables';
import { tableDetails } from './table-metadata';
import { mapLimit } from '../core/map-limit';
import { abortFanOut } from '../core/retry';

/** ListTables is paginated by 100; an account with more tables than this is cut off, not looped on forever. */
export const MAX_TABLES = 2000;
/** DescribeTable calls in flight at once: fast for dozens of tables without tripping control-plane throttling. */
const DESCRIBE_CONCURRENCY = 4;

export async function listTableNames(
  client: DynamoDBClient,
  signal: AbortSignal,
  max = MAX_TABLES,
): Promise<string[]> {
  const names: string[] = [];
  let start: string | undefined;
  do {
    const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start, Limit: 100 }), {
      abortSignal: signal,
    });
    names.push(...(page.TableNames ?? []));
    start = page.LastEvaluatedTableName;
  } while (start && names.length < max);
  return names.slice(0, max);
}

/**
 * Every table with its description; tables deleted while we list them are left out. Four tables
 * at once, three calls each, is twelve requests under the one cancel: each table's calls get a
 * signal of their own (abortFanOut), or Node warned of a listener leak on the shared one.
 */
export async function listTables(client: DynamoDBClient, signal: AbortSignal): Promise<TableSummary[]> {
  const names = await listTableNames(client, signal);
  const calls = abortFanOut(signal);
  try {
    const details = await mapLimit(names, DESCRIBE_CONCURRENCY, (name) =>
      calls.run(async (own) => {
        try {
          return await tableDetails(client, name, own);
        } catch (error) {
          if ((error as { name?: string }).name === 'ResourceNotFoundException' && !signal.aborted)
            return undefined;
          throw error;
        }
      }),
    );
    return details.flatMap((d) => (d ? [d.summary] : []));
  } finally {
    calls.close();
  }
}
