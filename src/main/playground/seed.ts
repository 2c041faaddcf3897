import {
  CreateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { describeTableDescription, forgetTable, tableSummary } from '../dynamo/table-metadata';
import { putItems } from '../dynamo/writes/put-items';
import {
  SAMPLE_TABLE,
  SAMPLE_TTL_ATTRIBUTE,
  sampleItems,
  sampleTableDefinition,
} from '../../../resources/playground/sample-table';
import { toSdkItem } from '../dynamo/marshal';
import { dataFolder } from '../files/data-folder';

/** Written after the last sample item, so a start interrupted mid-seed finishes the job next time. */

async function tableExists(client: DynamoDBClient, table: string): Promise<boolean> {
  try {
    await describeTableDescription(client, table, undefined, 0);
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ResourceNotFoundException') return false;
    throw error;
  }
}

/**
 * Creates and fills the sample table when it does not exist (or an earlier seed was cut short).
 * Returns true when it wrote the sample now; an existing sample, edited or not, is left alone.
 */
export async function ensureSampleTable(client: DynamoDBClient, dataDir: string): Promise<boolean> {
  const marker = dataFolder.sampleSeeded(dataDir);
  const exists = await tableExists(client, SAMPLE_TABLE);
  if (exists && existsSync(marker)) return false;
  if (!exists) {
    await client.send(new CreateTableCommand(sampleTableDefinition));
    await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: SAMPLE_TABLE });
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: SAMPLE_TABLE,
        TimeToLiveSpecification: { Enabled: true, AttributeName: SAMPLE_TTL_ATTRIBUTE },
      }),
    );
    forgetTable(client, SAMPLE_TABLE);
  }
  const items = sampleItems();
  const { keys } = await tableSummary(client, SAMPLE_TABLE);
  const signal = new AbortController().signal;
  const out = await putItems(
    { client, table: SAMPLE_TABLE, keys, policy: { policy: 'overwrite' }, signal },
    items,
    toSdkItem,
  );
  const first = out.failures[0];
  if (first)
    throw new Error(
      `${out.failures.length} sample items could not be written (${first.code}: ${first.message})`,
    );
  await writeFile(
    marker,
    JSON.stringify({ table: SAMPLE_TABLE, items: items.length, seededAt: new Date().toISOString() }),
  );
  return true;
}
