import { type DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import type { z } from 'zod';
import type { Connection, testConnectionOutput } from '../../shared/ipc/connection';
import { toAppError } from '../core/to-app-error';
import { clientConfigFor, playgroundEndpoint, type ClientConfigDeps } from './client-config';
import { describeEndpoint } from './describe-endpoint';
import { explainFailure } from './explain-failure';
import { dynamoClient } from './dynamo-client';

export type TestConnectionResult = z.infer<typeof testConnectionOutput>;

// Counting stops here: the answer is about reaching DynamoDB, not an inventory.
const MAX_PAGES = 10;
const PAGE = 100;

async function countTables(
  client: DynamoDBClient,
  signal?: AbortSignal,
): Promise<{ count: number; more: boolean }> {
  let count = 0;
  let start: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const out = await client.send(new ListTablesCommand({ Limit: PAGE, ExclusiveStartTableName: start }), {
      abortSignal: signal,
    });
    count += out.TableNames?.length ?? 0;
    start = out.LastEvaluatedTableName;
    if (!start) return { count, more: false };
  }
  return { count, more: true };
}

function tablesSentence({ count, more }: { count: number; more: boolean }): string {
  if (more) return `More than ${count.toLocaleString('en-US')} tables are visible.`;
  if (count === 0) return 'No tables yet.';
  return count === 1 ? '1 table is visible.' : `${count} tables are visible.`;
}

/**
 * "Test connection": one call to STS (who am I?) when talking to AWS, then a bounded
 * ListTables, answered with a sentence a person understands whatever happened.
 */
export async function testConnection(
  connection: Connection,
  deps: ClientConfigDeps,
  signal?: AbortSignal,
): Promise<TestConnectionResult> {
  let dynamo: DynamoDBClient | undefined;
  let sts: STSClient | undefined;
  let identity: string | undefined;
  try {
    const config = clientConfigFor(connection, deps);
    dynamo = dynamoClient(config);
    if (connection.kind === 'playground' || config.endpoint) {
      const where =
        connection.kind === 'playground'
          ? `the local playground (DynamoDB Local at ${playgroundEndpoint(deps.playground)})`
          : describeEndpoint(config.endpoint ?? '');
      const tables = await countTables(dynamo, signal);
      return {
        ok: true,
        message: `Connected to ${where}. ${tablesSentence(tables)}`,
        tableCount: tables.count,
      };
    }
    sts = new STSClient({ ...config, maxAttempts: 2 });
    const me = await sts.send(new GetCallerIdentityCommand({}), { abortSignal: signal });
    identity = me.Arn ?? `account ${me.Account ?? 'unknown'}`;
    const tables = await countTables(dynamo, signal);
    return {
      ok: true,
      message: `Connected to ${connection.region} as ${identity}. ${tablesSentence(tables)}`,
      tableCount: tables.count,
    };
  } catch (error) {
    const appError = toAppError(error);
    return {
      ok: false,
      message: explainFailure(appError, connection, identity),
      errorCode: appError.code,
      ...(appError.details?.canSignIn === true ? { canSignIn: true } : {}),
    };
  } finally {
    dynamo?.destroy();
    sts?.destroy();
  }
}
