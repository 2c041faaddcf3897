import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { S3Client } from '@aws-sdk/client-s3';
import { rawDynamo } from '../raw-dynamo';
import { localS3Client } from './s3-local';
import { type ChangeRecord, type WireItem, writeExportLayout } from './export-layout';
import { type ImportCounts, type ImportRequest, runImport } from './import-job';

/**
 * DynamoDB with S3 exports and imports, for tests: a JSON 1.0 server (X-Amz-Target
 * DynamoDB_20120810.*) that answers the PITR, export and import operations itself and passes
 * every other operation through to a real DynamoDB Local, so one endpoint is "DynamoDB" to the
 * real SDK. Requests without an X-Amz-Target (S3's REST calls) go on to s3rver, so one endpoint
 * is also "S3", the way LocalStack's one edge port serves every service. Exports scan the table in DynamoDB Local and write the documented layout into S3
 * (s3rver); imports read a prefix of S3 into a new table.
 *
 * What it simplifies: the table's history is not recorded write by write. A snapshot is taken
 * when PITR is enabled and at every export; an incremental export compares the newest snapshot
 * taken at or before ExportFromTime with the table as it is now, and stamps every change with
 * the request's time.
 */
export interface ExportServerOptions {
  dynamoEndpoint: string;
  s3Endpoint: string;
  /** Keeps each export and import IN_PROGRESS at least this long, so progress can be watched. */
  holdMs?: number;
}

export interface ExportServer {
  endpoint: string;
  stop(): Promise<void>;
}

class ServiceError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

interface TableShape {
  arn: string;
  keys: string[];
}

interface Snapshot {
  time: number;
  items: Map<string, WireItem>;
}

type Json = Record<string, unknown>;
const seconds = (ms: number): number => ms / 1000;

export async function startExportServer(options: ExportServerOptions): Promise<ExportServer> {
  const s3: S3Client = localS3Client(options.s3Endpoint);
  const pitr = new Map<string, number>();
  const tableIds = new Map<string, string>();
  const snapshots = new Map<string, Snapshot[]>();
  const exports = new Map<string, Json>();
  const imports = new Map<string, Json>();
  const hold = options.holdMs ?? 0;
  const running = new Set<Promise<void>>();

  const describe = async (table: string): Promise<TableShape> => {
    try {
      const answer = await rawDynamo<{ Table: { TableArn: string; KeySchema: { AttributeName: string }[] } }>(
        options.dynamoEndpoint,
        'DescribeTable',
        { TableName: table },
      );
      return { arn: answer.Table.TableArn, keys: answer.Table.KeySchema.map((k) => k.AttributeName) };
    } catch {
      throw new ServiceError('TableNotFoundException', `Table not found: ${table}`);
    }
  };

  const scan = async (table: string, keys: string[]): Promise<Map<string, WireItem>> => {
    const items = new Map<string, WireItem>();
    let start: unknown;
    do {
      const page = await rawDynamo<{ Items: WireItem[]; LastEvaluatedKey?: unknown }>(
        options.dynamoEndpoint,
        'Scan',
        { TableName: table, ...(start ? { ExclusiveStartKey: start } : {}) },
      );
      for (const item of page.Items) items.set(JSON.stringify(keys.map((k) => item[k])), item);
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  };

  const snapshot = async (table: string, keys: string[]): Promise<Snapshot> => {
    const taken = { time: Date.now(), items: await scan(table, keys) };
    const list = snapshots.get(table) ?? [];
    list.push(taken);
    snapshots.set(table, list);
    return taken;
  };

  const tableName = (arn: unknown): string => {
    const match = typeof arn === 'string' ? /:table\/([^/]+)$/.exec(arn) : null;
    if (!match) throw new ServiceError('ValidationException', `Invalid TableArn: ${String(arn)}`);
    return match[1]!;
  };

  const pitrDescription = (table: string): Json => {
    const since = pitr.get(table);
    return {
      ContinuousBackupsStatus: 'ENABLED',
      PointInTimeRecoveryDescription:
        since === undefined
          ? { PointInTimeRecoveryStatus: 'DISABLED' }
          : {
              PointInTimeRecoveryStatus: 'ENABLED',
              EarliestRestorableDateTime: seconds(since),
              LatestRestorableDateTime: seconds(Date.now()),
              RecoveryPeriodInDays: 35,
            },
    };
  };

  /** Runs a job, then (after the hold) marks its description COMPLETED unless it FAILED. */
  const background = (description: Json, field: string, job: () => Promise<void>): void => {
    const started = Date.now();
    const run = job()
      .then(() => new Promise<void>((r) => setTimeout(r, Math.max(0, hold - (Date.now() - started)))))
      .then(() => {
        if (description[field] === 'IN_PROGRESS') description[field] = 'COMPLETED';
        description.EndTime = seconds(Date.now());
      })
      .finally(() => running.delete(run));
    running.add(run);
  };

  const diff = (before: Snapshot, after: Map<string, WireItem>, keys: string[], withOld: boolean) => {
    const micros = BigInt(Date.now()) * 1000n;
    const changes: ChangeRecord[] = [];
    const keysOf = (item: WireItem): WireItem => Object.fromEntries(keys.map((k) => [k, item[k]!]));
    for (const [key, item] of after) {
      const old = before.items.get(key);
      if (old && JSON.stringify(old) === JSON.stringify(item)) continue;
      changes.push({
        keys: keysOf(item),
        newImage: item,
        ...(old && withOld ? { oldImage: old } : {}),
        writeMicros: micros,
      });
    }
    for (const [key, old] of before.items) {
      if (!after.has(key))
        changes.push({ keys: keysOf(old), ...(withOld ? { oldImage: old } : {}), writeMicros: micros });
    }
    return changes;
  };

  const startExport = async (input: Json): Promise<Json> => {
    const table = tableName(input.TableArn);
    const shape = await describe(table);
    if (!pitr.has(table))
      throw new ServiceError(
        'PointInTimeRecoveryUnavailableException',
        `Point in time recovery is not enabled for table '${table}'`,
      );
    if (typeof input.S3Bucket !== 'string')
      throw new ServiceError('ValidationException', 'S3Bucket is required');
    const incremental = input.ExportType === 'INCREMENTAL_EXPORT';
    const spec = (input.IncrementalExportSpecification ?? {}) as Json;
    const now = Date.now();
    const from = typeof spec.ExportFromTime === 'number' ? spec.ExportFromTime * 1000 : undefined;
    if (incremental && from === undefined)
      throw new ServiceError('ValidationException', 'ExportFromTime is required for an incremental export');
    const base = incremental
      ? [...(snapshots.get(table) ?? [])].reverse().find((s) => s.time <= from!)
      : undefined;
    if (incremental && !base)
      throw new ServiceError(
        'InvalidExportTimeException',
        'ExportFromTime is before the earliest restorable time of this table',
      );
    const exportId = `${now}-${randomBytes(4).toString('hex')}`;
    const exportArn = `${shape.arn}/export/${exportId}`;
    const view = spec.ExportViewType === 'NEW_IMAGE' ? 'NEW_IMAGE' : 'NEW_AND_OLD_IMAGES';
    const format = input.ExportFormat === 'ION' ? 'ION' : 'DYNAMODB_JSON';
    const description: Json = {
      ExportArn: exportArn,
      ExportStatus: 'IN_PROGRESS',
      StartTime: seconds(now),
      TableArn: shape.arn,
      TableId: tableIds.get(table) ?? tableIds.set(table, randomUUID()).get(table),
      ExportTime: typeof input.ExportTime === 'number' ? input.ExportTime : seconds(now),
      ClientToken: input.ClientToken ?? randomUUID(),
      S3Bucket: input.S3Bucket,
      ...(typeof input.S3Prefix === 'string' ? { S3Prefix: input.S3Prefix } : {}),
      S3SseAlgorithm: input.S3SseAlgorithm ?? 'AES256',
      ExportFormat: format,
      ExportType: incremental ? 'INCREMENTAL_EXPORT' : 'FULL_EXPORT',
      ...(incremental
        ? {
            IncrementalExportSpecification: {
              ExportFromTime: seconds(from!),
              ExportToTime: typeof spec.ExportToTime === 'number' ? spec.ExportToTime : seconds(now),
              ExportViewType: view,
            },
          }
        : {}),
    };
    exports.set(exportArn, description);
    background(description, 'ExportStatus', async () => {
      try {
        const current = await snapshot(table, shape.keys);
        const written = await writeExportLayout(
          s3,
          {
            exportArn,
            tableArn: shape.arn,
            tableId: description.TableId as string,
            startTime: new Date(now),
            exportTime: new Date(now),
            s3Bucket: input.S3Bucket as string,
            s3Prefix: input.S3Prefix as string | undefined,
            format,
            ...(incremental ? { incremental: { from: new Date(from!), to: new Date(now), view } } : {}),
          },
          exportId,
          incremental
            ? { changes: diff(base!, current.items, shape.keys, view === 'NEW_AND_OLD_IMAGES') }
            : { items: [...current.items.values()] },
          () => new Date(),
        );
        Object.assign(description, {
          ExportManifest: written.manifestSummaryKey,
          ItemCount: written.itemCount,
          BilledSizeBytes: written.billedSizeBytes,
        });
      } catch (error) {
        Object.assign(description, {
          ExportStatus: 'FAILED',
          FailureCode: 'S3NoSuchBucket',
          FailureMessage: (error as Error).message,
        });
      }
    });
    return { ExportDescription: { ...description } };
  };

  const startImport = async (input: Json): Promise<Json> => {
    const request = input as unknown as ImportRequest;
    if (request.InputFormat === 'ION')
      throw new ServiceError('ValidationException', 'This test server imports DYNAMODB_JSON and CSV only');
    const params = request.TableCreationParameters;
    try {
      await rawDynamo(options.dynamoEndpoint, 'CreateTable', {
        TableName: params.TableName,
        AttributeDefinitions: params.AttributeDefinitions,
        KeySchema: params.KeySchema,
        BillingMode: params.BillingMode ?? 'PAY_PER_REQUEST',
        ...(params.ProvisionedThroughput ? { ProvisionedThroughput: params.ProvisionedThroughput } : {}),
        ...(params.GlobalSecondaryIndexes ? { GlobalSecondaryIndexes: params.GlobalSecondaryIndexes } : {}),
      });
    } catch (error) {
      throw new ServiceError(
        'ResourceInUseException',
        `Table already exists: ${params.TableName} (${(error as Error).message})`,
      );
    }
    const shape = await describe(params.TableName);
    const importArn = `${shape.arn}/import/${Date.now()}-${randomBytes(4).toString('hex')}`;
    const counts: ImportCounts = {
      processedItemCount: 0,
      importedItemCount: 0,
      errorCount: 0,
      processedSizeBytes: 0,
    };
    const description: Json = {
      ImportArn: importArn,
      ImportStatus: 'IN_PROGRESS',
      TableArn: shape.arn,
      TableId: randomUUID(),
      ClientToken: input.ClientToken ?? randomUUID(),
      S3BucketSource: request.S3BucketSource,
      InputFormat: request.InputFormat,
      ...(request.InputFormatOptions ? { InputFormatOptions: request.InputFormatOptions } : {}),
      InputCompressionType: request.InputCompressionType ?? 'NONE',
      TableCreationParameters: params,
      StartTime: seconds(Date.now()),
    };
    imports.set(importArn, description);
    importCounts.set(importArn, counts);
    background(description, 'ImportStatus', async () => {
      try {
        await runImport(s3, options.dynamoEndpoint, request, counts);
      } catch (error) {
        Object.assign(description, {
          ImportStatus: 'FAILED',
          FailureCode: 'ImportFailed',
          FailureMessage: (error as Error).message,
        });
      }
    });
    return { ImportTableDescription: withCounts(importArn) };
  };

  const importCounts = new Map<string, ImportCounts>();
  const withCounts = (arn: string): Json => {
    const counts = importCounts.get(arn)!;
    return {
      ...imports.get(arn),
      ProcessedItemCount: counts.processedItemCount,
      ImportedItemCount: counts.importedItemCount,
      ErrorCount: counts.errorCount,
      ProcessedSizeBytes: counts.processedSizeBytes,
    };
  };
  const handlers: Record<string, (input: Json) => Promise<Json>> = {
    DescribeContinuousBackups: async (input) => {
      await describe(String(input.TableName));
      return { ContinuousBackupsDescription: pitrDescription(String(input.TableName)) };
    },
    UpdateContinuousBackups: async (input) => {
      const table = String(input.TableName);
      const shape = await describe(table);
      const spec = (input.PointInTimeRecoverySpecification ?? {}) as Json;
      if (spec.PointInTimeRecoveryEnabled === true) {
        if (!pitr.has(table)) {
          pitr.set(table, Date.now());
          await snapshot(table, shape.keys);
        }
      } else pitr.delete(table);
      return { ContinuousBackupsDescription: pitrDescription(table) };
    },
    ExportTableToPointInTime: startExport,
    DescribeExport: (input) => {
      const description = exports.get(String(input.ExportArn));
      if (!description)
        return Promise.reject(new ServiceError('ExportNotFoundException', 'Export not found'));
      return Promise.resolve({ ExportDescription: { ...description } });
    },
    ListExports: (input) => {
      const all = [...exports.values()].filter(
        (d) => input.TableArn === undefined || d.TableArn === input.TableArn,
      );
      const start = typeof input.NextToken === 'string' ? Number(input.NextToken) : 0;
      const size = typeof input.MaxResults === 'number' ? input.MaxResults : 25;
      const page = all.slice(start, start + size).map((d) => {
        return { ExportArn: d.ExportArn, ExportStatus: d.ExportStatus, ExportType: d.ExportType };
      });
      return Promise.resolve({
        ExportSummaries: page,
        ...(start + size < all.length ? { NextToken: String(start + size) } : {}),
      });
    },
    ImportTable: startImport,
    DescribeImport: (input) => {
      const arn = String(input.ImportArn);
      if (!imports.has(arn))
        return Promise.reject(new ServiceError('ImportNotFoundException', 'Import not found'));
      return Promise.resolve({ ImportTableDescription: withCounts(arn) });
    },
  };

  const s3Url = new URL(options.s3Endpoint);
  /** Streams an S3 request to s3rver and its answer back (s3rver accepts the changed Host). */
  const toS3 = (req: IncomingMessage, res: ServerResponse): void => {
    const forwarded = request(
      {
        host: s3Url.hostname,
        port: s3Url.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: s3Url.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', (error) => {
      res.writeHead(502);
      res.end(error.message);
    });
    req.pipe(forwarded);
  };

  const server = createServer((req, res) => void answer(req, res));
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (req.headers['x-amz-target'] === undefined) {
      toS3(req, res);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = target.replace(/^DynamoDB_20120810\./, '');
    const handler = handlers[operation];
    if (!handler) {
      const forwarded = await fetch(options.dynamoEndpoint, {
        method: 'POST',
        headers: {
          'content-type': req.headers['content-type'] ?? 'application/x-amz-json-1.0',
          'x-amz-target': target,
          authorization: req.headers.authorization ?? '',
          'x-amz-date': String(req.headers['x-amz-date'] ?? ''),
        },
        body,
      });
      res.writeHead(forwarded.status, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(Buffer.from(await forwarded.arrayBuffer()));
      return;
    }
    try {
      const input = JSON.parse(body.toString('utf8') || '{}') as Json;
      const output = await handler(input);
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': randomUUID() });
      res.end(JSON.stringify(output));
    } catch (error) {
      const type = error instanceof ServiceError ? error.type : 'InternalServerError';
      res.writeHead(error instanceof ServiceError ? 400 : 500, {
        'content-type': 'application/x-amz-json-1.0',
      });
      res.end(
        JSON.stringify({
          __type: `com.amazonaws.dynamodb.v20120810#${type}`,
          message: (error as Error).message,
        }),
      );
    }
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    async stop() {
      await Promise.allSettled([...running]);
      s3.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
