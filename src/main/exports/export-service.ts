import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ChannelInput, ChannelOutput } from '../../shared/ipc';
import { s3ClientFor } from '../aws/s3-client';
import type { CoreContext } from '../core/context';
import type { OperationOutcome, OperationRun } from '../core/operations';
import { forgetTable, keyAttributesOf, tableSummary } from '../dynamo/table-metadata';
import { announceTableChange } from '../sql/service-registry';
import {
  describeExport,
  describeImport,
  enablePitr,
  type ExportState,
  follow,
  type ImportState,
  listExports,
  pitrState,
  startExport,
  startImport,
} from './export-control';
import { type OpenedExport, openExport } from './export-open';
import { type ExportFiles, folderFiles, s3Files } from './export-source';
import { uploadedExportFolder } from './export-upload';
import type { ExportLocation } from './opened-exports';
import { openedExports } from './opened-exports';

/**
 * The exports:* and imports:* channels over the export library. Starting an export or an import
 * is a write: the connection's client refuses it in main when the connection is read-only (its
 * read-only guard lets only reads through), before anything is sent.
 */
/** Exports name tables by ARN; DescribeTable gives it (the cached description will do). */
async function tableArn(client: DynamoDBClient, table: string): Promise<string> {
  const arn = (await tableSummary(client, table)).arn;
  if (!arn) throw new AppFailure(ErrorCodes.notFound, `DynamoDB did not give the ARN of table ${table}.`);
  return arn;
}

export async function listTableExports(
  ctx: CoreContext,
  input: ChannelInput<'exports:list'>,
): Promise<ChannelOutput<'exports:list'>> {
  const client = await ctx.clients.dynamo(input.connectionId);
  const arn = await tableArn(client, input.table);
  const pitr = await pitrState(client, input.table);
  return { pitr, exports: await listExports(client, arn) };
}

export async function enableTablePitr(ctx: CoreContext, connectionId: string, table: string) {
  const client = await ctx.clients.dynamo(connectionId);
  try {
    return await enablePitr(client, table);
  } finally {
    forgetTable(client, table);
  }
}

const exportProgress = (state: ExportState, polls: number) => ({
  items: state.itemCount ?? 0,
  pages: polls,
  consumedCapacity: 0,
  message:
    state.status === 'IN_PROGRESS'
      ? 'Export in progress; DynamoDB writes the files to S3.'
      : state.status === 'COMPLETED'
        ? `Export completed: ${(state.itemCount ?? 0).toLocaleString('en-US')} items, ${(state.billedSizeBytes ?? 0).toLocaleString('en-US')} bytes billed.`
        : `Export failed: ${state.failure ?? 'no reason given'}.`,
});

function followExport(ctx: CoreContext, client: DynamoDBClient, requestId: string, exportArn: string): void {
  ctx.operations.start(requestId, async (run: OperationRun): Promise<OperationOutcome<'exports:follow'>> => {
    let polls = 0;
    const last = await follow(
      (signal) => describeExport(client, exportArn, signal),
      (state) => run.emit({ type: 'progress', progress: exportProgress(state, ++polls) }),
      run.signal,
    );
    return { progress: exportProgress(last, polls), value: last };
  });
}

/**
 * Asks DynamoDB for the export and answers its first state, without following it (the CLI's
 * `export start` without --wait); startTableExport follows it as an operation.
 */
export async function beginTableExport(
  ctx: CoreContext,
  input: Omit<ChannelInput<'exports:start'>, 'requestId'>,
): Promise<ExportState> {
  const client = await ctx.clients.dynamo(input.connectionId);
  return startExport(client, {
    tableArn: await tableArn(client, input.table),
    bucket: input.bucket,
    ...(input.prefix ? { prefix: input.prefix } : {}),
    format: input.format ?? 'DYNAMODB_JSON',
    ...(input.incremental
      ? {
          incremental: {
            from: new Date(input.incremental.from),
            ...(input.incremental.to ? { to: new Date(input.incremental.to) } : {}),
            view: input.incremental.view ?? 'NEW_AND_OLD_IMAGES',
          },
        }
      : {}),
  });
}

export async function startTableExport(
  ctx: CoreContext,
  input: ChannelInput<'exports:start'>,
): Promise<ChannelOutput<'exports:start'>> {
  const started = await beginTableExport(ctx, input);
  followExport(ctx, await ctx.clients.dynamo(input.connectionId), input.requestId, started.exportArn);
  return { started: true, exportArn: started.exportArn };
}

export async function followTableExport(
  ctx: CoreContext,
  input: ChannelInput<'exports:follow'>,
): Promise<ChannelOutput<'exports:follow'>> {
  followExport(ctx, await ctx.clients.dynamo(input.connectionId), input.requestId, input.exportArn);
  return { started: true };
}

/** Opens an export in S3 as a result set; reads S3 only, never the table's capacity. */
export async function openS3Export(
  ctx: CoreContext,
  input: ChannelInput<'exports:open'>,
): Promise<ChannelOutput<'exports:open'>> {
  const s3 = await s3ClientFor(ctx, input.connectionId);
  const location = {
    kind: 's3',
    connectionId: input.connectionId,
    bucket: input.bucket,
    prefix: input.prefix ?? '',
  } as const;
  await openAsResultSet(
    ctx,
    input,
    location,
    (signal) => s3Files(s3, input.bucket, input.prefix ?? '', signal),
    () => s3.destroy(),
  );
  return { started: true };
}

/**
 * Opens an export in a folder the desktop's folder dialog chose (files:choose, openExport), or
 * one browser mode's page uploaded (export-upload.ts).
 */
export async function openFolderExport(
  ctx: CoreContext,
  input: ChannelInput<'exports:openFolder'>,
): Promise<ChannelOutput<'exports:openFolder'>> {
  if ((input.folderId === undefined) === (input.uploadId === undefined))
    throw new AppFailure(
      ErrorCodes.invalidInput,
      'Say which folder to open: the folderId the folder dialog gave, or the uploadId of an uploaded folder (one of them).',
    );
  const folder =
    input.folderId === undefined
      ? await uploadedExportFolder(ctx.dataDir, input.uploadId ?? '')
      : ctx.files.pathOf(input.folderId, 'openExport');
  return openExportFolderAt(ctx, input, folder);
}

/** Opens the export in a folder on this machine (the CLI's `export open --folder DIR`). */
export async function openExportFolderAt(
  ctx: CoreContext,
  input: { connectionId: string; requestId: string; exportId?: string | undefined },
  folder: string,
): Promise<{ started: boolean }> {
  await openAsResultSet(ctx, input, { kind: 'folder', path: folder }, () => folderFiles(folder));
  return { started: true };
}

async function openAsResultSet(
  ctx: CoreContext,
  input: { connectionId: string; requestId: string; exportId?: string | undefined },
  location: ExportLocation,
  filesOf: (signal: AbortSignal) => ExportFiles,
  close: () => void = () => undefined,
): Promise<void> {
  const dynamo = await ctx.clients.dynamo(input.connectionId);
  ctx.operations.start(input.requestId, async (run): Promise<OperationOutcome<'exports:open'>> => {
    try {
      let progress = { items: 0, pages: 0, consumedCapacity: 0 };
      const opened: OpenedExport = await openExport(filesOf(run.signal), ctx.resultSets, {
        connectionId: input.connectionId,
        ...(input.exportId ? { exportId: input.exportId } : {}),
        signal: run.signal,
        // The exported table may be gone or on another account: its keys are then unknown.
        keysOf: (table) =>
          tableSummary(dynamo, table, run.signal).then(
            (summary) => keyAttributesOf(summary),
            () => undefined,
          ),
        onProgress: ({ items, files, totalFiles }) => {
          progress = {
            items,
            pages: files,
            consumedCapacity: 0,
            ...(totalFiles > 0 ? { fraction: Math.min(1, files / totalFiles) } : {}),
          };
          run.emit({ type: 'progress', progress });
        },
      });
      openedExports(ctx).remember(opened, location);
      return { progress: { ...progress, items: opened.items, fraction: 1 }, value: opened };
    } finally {
      close();
    }
  });
}

const importProgress = (state: ImportState, polls: number) => ({
  items: state.importedItems,
  pages: polls,
  consumedCapacity: 0,
  ...(state.errors > 0 ? { failed: state.errors } : {}),
  message:
    state.status === 'IN_PROGRESS' || state.status === 'IMPORTING'
      ? `Importing into ${state.table}: ${state.processedItems.toLocaleString('en-US')} items read from S3.`
      : state.status === 'COMPLETED'
        ? `Import completed: ${state.importedItems.toLocaleString('en-US')} items in ${state.table}.`
        : `Import ${state.status.toLowerCase()}: ${state.failure ?? 'no reason given'}.`,
});

export async function startS3Import(
  ctx: CoreContext,
  input: ChannelInput<'imports:start'>,
): Promise<ChannelOutput<'imports:start'>> {
  const client = await ctx.clients.dynamo(input.connectionId);
  const keys = [input.partitionKey, ...(input.sortKey ? [input.sortKey] : [])];
  const started = await startImport(client, {
    S3BucketSource: { S3Bucket: input.bucket, ...(input.prefix ? { S3KeyPrefix: input.prefix } : {}) },
    InputFormat: input.format ?? 'DYNAMODB_JSON',
    InputCompressionType: input.compression ?? 'GZIP',
    TableCreationParameters: {
      TableName: input.table,
      AttributeDefinitions: keys.map((k) => ({ AttributeName: k.name, AttributeType: k.type })),
      KeySchema: keys.map((k, i) => ({ AttributeName: k.name, KeyType: i === 0 ? 'HASH' : 'RANGE' })),
      BillingMode: 'PAY_PER_REQUEST',
    },
  });
  ctx.operations.start(input.requestId, async (run): Promise<OperationOutcome<'imports:start'>> => {
    let polls = 0;
    try {
      const last = await follow(
        (signal) => describeImport(client, started.importArn, signal),
        (state) => run.emit({ type: 'progress', progress: importProgress(state, ++polls) }),
        run.signal,
      );
      return { progress: importProgress(last, polls), value: last };
    } finally {
      // ImportTable created the table, even when the user stopped following it: SQL lists it.
      await announceTableChange(ctx, input.connectionId, input.table);
    }
  });
  return { started: true, importArn: started.importArn };
}
