import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { parse } from 'csv-parse/sync';
import { rawDynamo } from '../raw-dynamo';
import type { WireItem } from './export-layout';

export interface ImportRequest {
  S3BucketSource: { S3Bucket: string; S3KeyPrefix?: string };
  InputFormat: 'DYNAMODB_JSON' | 'ION' | 'CSV';
  InputCompressionType?: 'GZIP' | 'ZSTD' | 'NONE';
  InputFormatOptions?: { Csv?: { Delimiter?: string; HeaderList?: string[] } };
  TableCreationParameters: {
    TableName: string;
    AttributeDefinitions: { AttributeName: string; AttributeType: 'S' | 'N' | 'B' }[];
    KeySchema: { AttributeName: string; KeyType: string }[];
    BillingMode?: string;
    ProvisionedThroughput?: unknown;
    GlobalSecondaryIndexes?: unknown[];
  };
}

export interface ImportCounts {
  processedItemCount: number;
  importedItemCount: number;
  errorCount: number;
  processedSizeBytes: number;
}

/**
 * CSV as the import feature documents it: the header (HeaderList, else the first line) names the
 * columns; key attributes take the type their AttributeDefinition gives, every other non-empty
 * cell imports as a string.
 */
function csvItems(text: string, request: ImportRequest): WireItem[] {
  const csv = request.InputFormatOptions?.Csv;
  const rows: string[][] = parse(text, { delimiter: csv?.Delimiter ?? ',', relax_column_count: true });
  const header = csv?.HeaderList ?? rows.shift() ?? [];
  const types = new Map(
    request.TableCreationParameters.AttributeDefinitions.map((d) => [d.AttributeName, d.AttributeType]),
  );
  return rows.map((row) => {
    const item: WireItem = Object.create(null) as WireItem;
    header.forEach((name, i) => {
      const cell = row[i];
      if (cell === undefined || cell === '') return;
      const type = types.get(name) ?? 'S';
      item[name] = type === 'N' ? { N: cell } : type === 'B' ? { B: cell } : { S: cell };
    });
    return item;
  });
}

function jsonItems(text: string, counts: ImportCounts): WireItem[] {
  const items: WireItem[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = JSON.parse(line) as { Item?: WireItem };
      if (parsed.Item && typeof parsed.Item === 'object') items.push(parsed.Item);
      else counts.errorCount++;
    } catch {
      counts.errorCount++;
    }
  }
  return items;
}

async function batchWrite(endpoint: string, table: string, items: WireItem[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    let requests: unknown = {
      [table]: items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })),
    };
    for (let attempt = 0; attempt < 20; attempt++) {
      const answer = await rawDynamo<{ UnprocessedItems?: Record<string, unknown[]> }>(
        endpoint,
        'BatchWriteItem',
        { RequestItems: requests },
      );
      const left = answer.UnprocessedItems?.[table];
      if (!left || left.length === 0) break;
      requests = { [table]: left };
    }
  }
}

/** Reads every object under the prefix and writes its items into the (already created) table. */
export async function runImport(
  s3: S3Client,
  dynamoEndpoint: string,
  request: ImportRequest,
  counts: ImportCounts,
): Promise<void> {
  const { S3Bucket, S3KeyPrefix } = request.S3BucketSource;
  const table = request.TableCreationParameters.TableName;
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({ Bucket: S3Bucket, Prefix: S3KeyPrefix, ContinuationToken: token }),
    );
    token = page.NextContinuationToken;
    for (const object of page.Contents ?? []) {
      if (!object.Key || object.Key.endsWith('/')) continue;
      const got = await s3.send(new GetObjectCommand({ Bucket: S3Bucket, Key: object.Key }));
      let bytes = Buffer.from(await got.Body!.transformToByteArray());
      if (bytes.length === 0) continue;
      if (request.InputCompressionType === 'GZIP') bytes = gunzipSync(bytes);
      const text = bytes.toString('utf8');
      counts.processedSizeBytes += bytes.length;
      const items = request.InputFormat === 'CSV' ? csvItems(text, request) : jsonItems(text, counts);
      counts.processedItemCount += items.length;
      await batchWrite(dynamoEndpoint, table, items);
      counts.importedItemCount += items.length;
    }
  } while (token);
}
