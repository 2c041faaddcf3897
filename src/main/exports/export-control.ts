import {
  DescribeContinuousBackupsCommand,
  DescribeExportCommand,
  DescribeImportCommand,
  type DynamoDBClient,
  type ExportDescription,
  ExportTableToPointInTimeCommand,
  ImportTableCommand,
  type ImportTableCommandInput,
  type ImportTableDescription,
  ListExportsCommand,
  UpdateContinuousBackupsCommand,
} from '@aws-sdk/client-dynamodb';
import { AppFailure } from '../../shared/errors';
import { pollUntil } from '../core/retry';

/**
 * DynamoDB's own export and import (ExportTableToPointInTime, ImportTable): the data moves
 * between DynamoDB and S3 inside AWS, so no read or write capacity of the table is used.
 */
export const EXPORTS_UNAVAILABLE = 'ExportsUnavailable';

export interface PitrState {
  status: 'ENABLED' | 'DISABLED';
  earliest?: string;
  latest?: string;
}

const LOCAL_SENTENCE =
  'This endpoint has no point-in-time recovery and no S3 exports (DynamoDB Local has neither); use Copy to move the items client-side instead.';

/** DynamoDB Local and other stand-ins answer these operations with an unknown-operation error. */
function unavailable(error: unknown): never {
  const name = (error as { name?: string }).name ?? '';
  const message = (error as { message?: string }).message ?? '';
  if (/UnknownOperation|not supported|UnrecognizedClient/i.test(`${name} ${message}`))
    throw new AppFailure(EXPORTS_UNAVAILABLE, LOCAL_SENTENCE, false, { cause: name });
  throw error;
}

export async function pitrState(
  client: DynamoDBClient,
  table: string,
  signal?: AbortSignal,
): Promise<PitrState> {
  const answer = await client
    .send(new DescribeContinuousBackupsCommand({ TableName: table }), { abortSignal: signal })
    .catch(unavailable);
  const pitr = answer.ContinuousBackupsDescription?.PointInTimeRecoveryDescription;
  return {
    status: pitr?.PointInTimeRecoveryStatus === 'ENABLED' ? 'ENABLED' : 'DISABLED',
    ...(pitr?.EarliestRestorableDateTime ? { earliest: pitr.EarliestRestorableDateTime.toISOString() } : {}),
    ...(pitr?.LatestRestorableDateTime ? { latest: pitr.LatestRestorableDateTime.toISOString() } : {}),
  };
}

/** Turns PITR on (the user chose to, when the check found it off); it is billed per GB-month. */
export async function enablePitr(client: DynamoDBClient, table: string): Promise<PitrState> {
  await client
    .send(
      new UpdateContinuousBackupsCommand({
        TableName: table,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      }),
    )
    .catch(unavailable);
  return pitrState(client, table);
}

export interface StartExportRequest {
  tableArn: string;
  bucket: string;
  prefix?: string;
  format: 'DYNAMODB_JSON' | 'ION';
  /** A full export as of `exportTime` (default now), or the changes between from and to. */
  incremental?: { from: Date; to?: Date; view: 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES' };
  exportTime?: Date;
}

export interface ExportState {
  exportArn: string;
  status: 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';
  type: 'FULL_EXPORT' | 'INCREMENTAL_EXPORT';
  format: 'DYNAMODB_JSON' | 'ION';
  bucket?: string;
  prefix?: string;
  manifest?: string;
  itemCount?: number;
  billedSizeBytes?: number;
  startTime?: string;
  endTime?: string;
  failure?: string;
}

function exportState(d: ExportDescription | undefined): ExportState {
  return {
    exportArn: d?.ExportArn ?? '',
    status: d?.ExportStatus ?? 'IN_PROGRESS',
    type: d?.ExportType === 'INCREMENTAL_EXPORT' ? 'INCREMENTAL_EXPORT' : 'FULL_EXPORT',
    format: d?.ExportFormat === 'ION' ? 'ION' : 'DYNAMODB_JSON',
    ...(d?.S3Bucket ? { bucket: d.S3Bucket } : {}),
    ...(d?.S3Prefix ? { prefix: d.S3Prefix } : {}),
    ...(d?.ExportManifest ? { manifest: d.ExportManifest } : {}),
    ...(d?.ItemCount !== undefined ? { itemCount: d.ItemCount } : {}),
    ...(d?.BilledSizeBytes !== undefined ? { billedSizeBytes: d.BilledSizeBytes } : {}),
    ...(d?.StartTime ? { startTime: d.StartTime.toISOString() } : {}),
    ...(d?.EndTime ? { endTime: d.EndTime.toISOString() } : {}),
    ...(d?.FailureMessage ? { failure: `${d.FailureCode ?? 'Failed'}: ${d.FailureMessage}` } : {}),
  };
}

export async function startExport(client: DynamoDBClient, request: StartExportRequest): Promise<ExportState> {
  const answer = await client
    .send(
      new ExportTableToPointInTimeCommand({
        TableArn: request.tableArn,
        S3Bucket: request.bucket,
        ...(request.prefix ? { S3Prefix: request.prefix } : {}),
        ExportFormat: request.format,
        ...(request.incremental
          ? {
              ExportType: 'INCREMENTAL_EXPORT',
              IncrementalExportSpecification: {
                ExportFromTime: request.incremental.from,
                ...(request.incremental.to ? { ExportToTime: request.incremental.to } : {}),
                ExportViewType: request.incremental.view,
              },
            }
          : { ExportType: 'FULL_EXPORT', ...(request.exportTime ? { ExportTime: request.exportTime } : {}) }),
      }),
    )
    .catch(unavailable);
  return exportState(answer.ExportDescription);
}

export async function describeExport(
  client: DynamoDBClient,
  exportArn: string,
  signal?: AbortSignal,
): Promise<ExportState> {
  const answer = await client.send(new DescribeExportCommand({ ExportArn: exportArn }), {
    abortSignal: signal,
  });
  return exportState(answer.ExportDescription);
}

/** The table's past exports, newest last as DynamoDB lists them; at most `pages` pages of 25. */
export async function listExports(
  client: DynamoDBClient,
  tableArn: string,
  pages = 4,
): Promise<ExportState[]> {
  const out: ExportState[] = [];
  let token: string | undefined;
  for (let page = 0; page < pages; page++) {
    const answer = await client
      .send(new ListExportsCommand({ TableArn: tableArn, MaxResults: 25, NextToken: token }))
      .catch(unavailable);
    for (const summary of answer.ExportSummaries ?? [])
      out.push(await describeExport(client, summary.ExportArn ?? ''));
    token = answer.NextToken;
    if (!token) break;
  }
  return out;
}

export interface ImportState {
  importArn: string;
  status: string;
  table: string;
  processedItems: number;
  importedItems: number;
  errors: number;
  processedBytes: number;
  failure?: string;
}

function importState(d: ImportTableDescription | undefined): ImportState {
  return {
    importArn: d?.ImportArn ?? '',
    status: d?.ImportStatus ?? 'IN_PROGRESS',
    table: d?.TableCreationParameters?.TableName ?? '',
    processedItems: d?.ProcessedItemCount ?? 0,
    importedItems: d?.ImportedItemCount ?? 0,
    errors: d?.ErrorCount ?? 0,
    processedBytes: d?.ProcessedSizeBytes ?? 0,
    ...(d?.FailureMessage ? { failure: `${d.FailureCode ?? 'Failed'}: ${d.FailureMessage}` } : {}),
  };
}

/** ImportTable always creates a new table; DynamoDB refuses a name that exists (ResourceInUseException). */
export async function startImport(
  client: DynamoDBClient,
  input: ImportTableCommandInput,
): Promise<ImportState> {
  const answer = await client.send(new ImportTableCommand(input)).catch(unavailable);
  return importState(answer.ImportTableDescription);
}

export async function describeImport(
  client: DynamoDBClient,
  importArn: string,
  signal?: AbortSignal,
): Promise<ImportState> {
  const answer = await client.send(new DescribeImportCommand({ ImportArn: importArn }), {
    abortSignal: signal,
  });
  return importState(answer.ImportTableDescription);
}

/**
 * Follows an export or import until it leaves IN_PROGRESS, reporting each state. Bounded: a
 * real export of a large table takes minutes to hours, so the poll slows to `maxDelayMs`.
 */
export async function follow<T extends { status: string }>(
  poll: (signal?: AbortSignal) => Promise<T>,
  onState: (state: T) => void,
  signal?: AbortSignal,
  delays = { firstMs: 200, maxDelayMs: 30_000 },
): Promise<T> {
  return pollUntil({
    poll,
    onState,
    isDone: (state) => state.status !== 'IN_PROGRESS' && state.status !== 'IMPORTING',
    signal,
    ...delays,
    cancelMessage: 'Stopped following; the export or import goes on in AWS.',
  });
}
