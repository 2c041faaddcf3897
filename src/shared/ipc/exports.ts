import { z } from 'zod';
import { requestIdSchema } from './operations';
import { tableRefInput } from './tables';
import { exportTableSchema } from '../sql/catalog';

/**
 * DynamoDB's own S3 exports and imports (ExportTableToPointInTime, ImportTable): the data moves
 * between the table and S3 inside AWS, so neither uses the table's capacity. DynamoDB Local
 * implements neither; those calls answer ExportsUnavailable with a sentence offering Copy.
 */
const bucketSchema = z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'an S3 bucket name');
const prefixSchema = z.string().max(1024);

export const pitrSchema = z.object({
  status: z.enum(['ENABLED', 'DISABLED']),
  earliest: z.string().optional(),
  latest: z.string().optional(),
});

export const exportStateSchema = z.object({
  exportArn: z.string(),
  status: z.enum(['IN_PROGRESS', 'COMPLETED', 'FAILED']),
  type: z.enum(['FULL_EXPORT', 'INCREMENTAL_EXPORT']),
  bucket: z.string().optional(),
  prefix: z.string().optional(),
  /** The S3 key of its manifest-summary.json, once written. */
  manifest: z.string().optional(),
  itemCount: z.number().int().optional(),
  billedSizeBytes: z.number().optional(),
  startTime: z.string().optional(),
  endTime: z.string().optional(),
  failure: z.string().optional(),
});
export type ExportStateView = z.infer<typeof exportStateSchema>;

export const importStateSchema = z.object({
  importArn: z.string(),
  status: z.string(),
  table: z.string(),
  processedItems: z.number().int(),
  importedItems: z.number().int(),
  errors: z.number().int(),
  processedBytes: z.number(),
  failure: z.string().optional(),
});
export type ImportStateView = z.infer<typeof importStateSchema>;

/** An opened export: its result set and the incremental exports applied on top. */
export const openedExportSchema = exportTableSchema.extend({
  resultSetId: z.string(),
  incrementals: z.array(z.string()),
});
export type OpenedExportView = z.infer<typeof openedExportSchema>;

const keyAttributeSchema = z.object({
  name: z.string().min(1).max(255),
  type: z.enum(['S', 'N', 'B']),
});

export const exportStartInput = tableRefInput.extend({
  requestId: requestIdSchema,
  bucket: bucketSchema,
  prefix: prefixSchema.optional(),
  format: z.enum(['DYNAMODB_JSON', 'ION']).default('DYNAMODB_JSON'),
  /** The changes between `from` and `to` (default now), instead of the whole table. */
  incremental: z
    .object({
      from: z.iso.datetime(),
      to: z.iso.datetime().optional(),
      view: z.enum(['NEW_IMAGE', 'NEW_AND_OLD_IMAGES']).default('NEW_AND_OLD_IMAGES'),
    })
    .optional(),
});

export const exportChannels = {
  /** The table's PITR state and its past exports (at most 100), as DynamoDB lists them. */
  'exports:list': {
    input: tableRefInput,
    output: z.object({ pitr: pitrSchema, exports: z.array(exportStateSchema) }),
  },
  /** Turns on point-in-time recovery, which exports need; a write (billed per GB-month). */
  'exports:enablePitr': { input: tableRefInput, output: pitrSchema },
  /**
   * Starts ExportTableToPointInTime and follows it under requestId: progress events carry its
   * status, done.value is the ExportState when it leaves IN_PROGRESS.
   */
  'exports:start': {
    input: exportStartInput,
    output: z.object({ started: z.boolean(), exportArn: z.string() }),
    done: exportStateSchema,
  },
  /** Follows an export already running (one listed IN_PROGRESS) under requestId. */
  'exports:follow': {
    input: z.object({ connectionId: z.string(), requestId: requestIdSchema, exportArn: z.string().min(1) }),
    output: z.object({ started: z.boolean() }),
    done: exportStateSchema,
  },
  /**
   * Opens a DynamoDB-JSON export in S3 (a bucket and the prefix holding it) as a read-only result
   * set, streamed from S3 without reading the table; done.value is an OpenedExport.
   */
  'exports:open': {
    input: z.object({
      connectionId: z.string(),
      requestId: requestIdSchema,
      bucket: bucketSchema,
      prefix: prefixSchema.default(''),
      /** Which export of a prefix holding several (the id ending its ARN); the newest full one otherwise. */
      exportId: z.string().max(128).optional(),
    }),
    output: z.object({ started: z.boolean() }),
    done: openedExportSchema,
  },
  /**
   * Opens a DynamoDB-JSON export in a local folder as a read-only result set: in the desktop
   * window the folder chosen with the folder dialog (files:choose, purpose openExport, gives
   * folderId), in browser mode the folder the page uploaded (POST /api/upload/export-folder
   * gives uploadId). Exactly one of the two; done.value is an OpenedExport.
   */
  'exports:openFolder': {
    input: z.object({
      connectionId: z.string(),
      requestId: requestIdSchema,
      /** The handle files:choose gave for the chosen folder: main keeps the path. */
      folderId: z.string().min(1).max(64).optional(),
      /** The id POST /api/upload/export-folder answered: the uploaded copy under the data folder. */
      uploadId: z.string().min(1).max(64).optional(),
      exportId: z.string().max(128).optional(),
    }),
    output: z.object({ started: z.boolean() }),
    done: openedExportSchema,
  },
  /** Exports opened in this session, which SQL reads as `FROM export."<name or ARN>"`. */
  'exports:opened': { input: z.object({}).strict(), output: z.array(openedExportSchema) },
  /**
   * Starts ImportTable from an S3 prefix into a new table and follows it under requestId;
   * done.value is the ImportState.
   */
  'imports:start': {
    input: z.object({
      connectionId: z.string(),
      requestId: requestIdSchema,
      bucket: bucketSchema,
      prefix: prefixSchema.default(''),
      format: z.enum(['DYNAMODB_JSON', 'ION', 'CSV']).default('DYNAMODB_JSON'),
      compression: z.enum(['GZIP', 'ZSTD', 'NONE']).default('GZIP'),
      table: z.string().min(3).max(255),
      partitionKey: keyAttributeSchema,
      sortKey: keyAttributeSchema.optional(),
    }),
    output: z.object({ started: z.boolean(), importArn: z.string() }),
    done: importStateSchema,
  },
} as const;
