import { z } from 'zod';
import { itemSchema } from '../dynamo/attribute-value';
import { jobIdSchema } from './jobs';
import { keptForUndoShape } from './journal';
import { requestIdSchema } from './operations';
import { tableRefInput } from './tables';

/**
 * Export and import. Formats: DynamoDB JSON ({"Items": [...]}, as the AWS CLI prints a scan),
 * JSON Lines in the layout of DynamoDB's export to S3 ({"Item": {...}} per line), and CSV with a
 * type row so it comes back typed. Both run as operations with progress and cancel.
 */
export const transferFormatSchema = z.enum(['dynamodb-json', 'jsonl', 'csv']);
export type TransferFormat = z.infer<typeof transferFormatSchema>;

/**
 * What an import counts in, in the file's own parts: JSON Lines' lines, a CSV's rows (a quoted
 * cell may span lines; rows 1 and 2 name and type the columns), a DynamoDB-JSON document's items.
 * The report's problems and a stopped import's sentence both name them so.
 */
export const importParts: Record<
  TransferFormat,
  { one: string; many: string; oneCapital: string; manyCapital: string }
> = {
  jsonl: { one: 'line', many: 'lines', oneCapital: 'Line', manyCapital: 'Lines' },
  csv: { one: 'row', many: 'rows', oneCapital: 'Row', manyCapital: 'Rows' },
  'dynamodb-json': { one: 'item', many: 'items', oneCapital: 'Item', manyCapital: 'Items' },
};

/**
 * What an export of rows (a result set or a SQL result) writes: the three formats import reads,
 * and a plain JSON array of row objects (numbers exact, sets as arrays, binary as base64), which
 * SQL users expect and which does not come back typed.
 */
export const rowsFormatSchema = z.enum(['dynamodb-json', 'jsonl', 'csv', 'json']);
export type RowsFormat = z.infer<typeof rowsFormatSchema>;

export const exportInput = z.object({
  requestId: requestIdSchema,
  /** The rows to export: a result set's (resultSetId) or a SQL result's (sqlResultId); give one. */
  resultSetId: z.string().optional(),
  sqlResultId: z.string().optional(),
  /** Row indexes of a selection; absent for every row. */
  rows: z.array(z.number().int().nonnegative()).max(1_000_000).optional(),
  format: rowsFormatSchema,
  /** The file the user chose in the save dialog (files:choose); main holds its path. */
  fileId: z.string().min(1).max(64).optional(),
  /**
   * For API clients and scripts only (the window never sends one): a full path (desktop), or in
   * browser mode a name inside DynoTable's export folder. Give fileId or path.
   */
  path: z.string().min(1).max(4096).optional(),
  overwrite: z.boolean().optional(),
});

export const exportReportSchema = z.object({
  path: z.string(),
  items: z.number().int(),
  bytes: z.number().int(),
});
export type ExportReport = z.infer<typeof exportReportSchema>;

export const importInput = tableRefInput.extend({
  requestId: requestIdSchema,
  format: transferFormatSchema,
  /**
   * A file on this machine (desktop; in browser mode only inside DynoTable's data folder, and a
   * relative path starts in its export folder), a file the page uploaded first (browser mode:
   * POST /api/upload/import answers with its uploadId), or the text itself (up to 50 MB).
   */
  source: z.union([
    /** The file the user chose in the open dialog (files:choose, desktop). */
    z.object({ fileId: z.string().min(1).max(64) }),
    z.object({ path: z.string().min(1).max(4096) }),
    /** The page's upload; `name` is the file's name on the user's machine, for the sentences. */
    z.object({ uploadId: z.string().min(1).max(64), name: z.string().min(1).max(255).optional() }),
    z.object({ text: z.string().max(50_000_000) }),
  ]),
  /** Parse, validate and check which keys exist; write nothing. */
  dryRun: z.boolean(),
  /** create-only: conditional puts that never replace an existing item; overwrite: replace whole items. */
  mode: z.enum(['create-only', 'overwrite']).default('create-only'),
  confirmTable: z.string().max(255).optional(),
});

export const importReportSchema = z.object({
  dryRun: z.boolean(),
  /** The format the file was read as, which names what `failures[].line` counts (importParts). */
  format: transferFormatSchema,
  /** Items read from the source. */
  total: z.number().int(),
  /** Written, or for a dry run: would be written. */
  written: z.number().int(),
  /** Not written because an item with the key exists (create-only). */
  existing: z.number().int(),
  /** Lines that are not valid items for this table. */
  invalid: z.number().int(),
  /** Writes DynamoDB refused. */
  failed: z.number().int(),
  /** `line`: the line, row or item of the file (by `format`, see importParts), from 1. */
  failures: z.array(
    z.object({ line: z.number().int(), key: itemSchema.optional(), code: z.string(), message: z.string() }),
  ),
  sample: z.array(itemSchema),
  ...keptForUndoShape,
});
export type ImportReport = z.infer<typeof importReportSchema>;

export const fileChoiceInput = z.object({
  /**
   * import: an open dialog; export: a save dialog; openExport: a folder holding a DynamoDB export;
   * model: an open dialog for a dynotable-orm model file (migration:useModel reads it);
   * dynamoose: one for a dynamoose schema file (migration:useDynamoose reads it, never runs it).
   */
  purpose: z.enum(['import', 'export', 'openExport', 'model', 'dynamoose']),
  /** The file's format (import and export; a folder or a model file has none). */
  format: rowsFormatSchema.optional(),
  /** The save dialog's proposed file name (a name, never a path). */
  suggestedName: z.string().min(1).max(255).optional(),
});
export type FileChoiceInput = z.infer<typeof fileChoiceInput>;

export const fileChoiceSchema = z.union([
  z.object({ cancelled: z.literal(true) }),
  /** The path stays in main; the page gets a handle and the name to show. */
  z.object({ fileId: z.string(), name: z.string() }),
]);
export type FileChoice = z.infer<typeof fileChoiceSchema>;

/** A whole table or index read straight to a file (not a result set), resumable after a cancel or crash. */
export const tableExportInput = tableRefInput.extend({
  requestId: requestIdSchema,
  /** Export this index's items (what it projects) instead of the table's. */
  index: z.string().min(3).max(255).optional(),
  format: transferFormatSchema,
  /** The file the user chose in the save dialog (files:choose); main holds its path. */
  fileId: z.string().min(1).max(64).optional(),
  /** As for transfer:export: a full path (desktop) or a name inside the export folder (browser mode). */
  path: z.string().min(1).max(4096).optional(),
  overwrite: z.boolean().optional(),
});

/** A whole-table export's id, as transfer:exportTable answers it. */
export const tableExportIdSchema = z.string().regex(/^texp-[A-Za-z0-9_-]{6,58}$/, 'a table export id');

export const tableExportResumeInput = z.object({
  requestId: requestIdSchema,
  exportId: tableExportIdSchema,
});

export const tableExportStartedSchema = z.object({ started: z.boolean(), exportId: z.string() });

export const tableExportReportSchema = exportReportSchema.extend({
  exportId: z.string(),
  /** Read capacity the whole export consumed, resumed runs included. */
  consumedCapacity: z.number(),
});
export type TableExportReport = z.infer<typeof tableExportReportSchema>;

/** An export that stopped (cancelled, a crash, expired credentials) and can go on where it stopped. */
export const tableExportSummarySchema = z.object({
  exportId: z.string(),
  connectionId: z.string(),
  table: z.string(),
  index: z.string().optional(),
  format: transferFormatSchema,
  /** Where the file will be written when the export completes. */
  path: z.string(),
  items: z.number().int(),
  consumedCapacity: z.number(),
  /** The table's (or index's) approximate item count when the export started. */
  sourceCount: z.number(),
  savedAt: z.string(),
  state: z.enum(['running', 'stopped']),
});
export type TableExportSummary = z.infer<typeof tableExportSummarySchema>;

export const transferChannels = {
  /**
   * The desktop window's one way to pick a file or folder: main shows the system's open, save or
   * folder dialog and keeps the chosen path. Browser mode has no dialog: it uploads (POST /api/upload/import) and
   * downloads (GET /api/download/export) instead.
   */
  'files:choose': { input: fileChoiceInput, output: fileChoiceSchema },
  /** Streams a result set (or selected rows) to a file. */
  'transfer:export': {
    input: exportInput,
    output: z.object({ started: z.boolean() }),
    done: exportReportSchema,
  },
  /**
   * Reads a whole table or index (a Scan, every page) straight to a file in one of the three
   * formats, with progress and cancel. A cancelled or interrupted export keeps its place and
   * resumes with transfer:resumeTableExport; its file appears only when it is complete.
   */
  'transfer:exportTable': {
    input: tableExportInput,
    output: tableExportStartedSchema,
    done: tableExportReportSchema,
  },
  /** Goes on with a stopped whole-table export where it stopped, with the settings it started with. */
  'transfer:resumeTableExport': {
    input: tableExportResumeInput,
    output: tableExportStartedSchema,
    done: tableExportReportSchema,
  },
  /** The whole-table exports of a table that stopped before completing (or run now), newest first. */
  'transfer:tableExports': { input: tableRefInput, output: z.array(tableExportSummarySchema) },
  /** Forgets a stopped whole-table export: its place and the part read so far are deleted. */
  'transfer:forgetTableExport': {
    input: z.object({ exportId: tableExportIdSchema }),
    output: z.object({ removed: z.boolean() }),
  },
  /** Imports a file into a table (or dry-runs it). */
  'transfer:import': {
    input: importInput,
    output: z.object({ started: z.boolean() }),
    done: importReportSchema,
  },
  /**
   * Goes on with a stopped import (jobs:stopped lists it with canResume) from the line after the
   * last one it wrote, with the file, format and mode it started with. Refused with a sentence
   * when the file is gone or changed since (its size or modification time differ), and with the
   * same read-only and typed-name rules as transfer:import. `done` reports the lines read now.
   */
  'transfer:resumeImport': {
    input: tableRefInput.extend({
      requestId: requestIdSchema,
      jobId: jobIdSchema,
      /** On a production connection, the table name as the user typed it. */
      confirmTable: z.string().max(255).optional(),
    }),
    output: z.object({ started: z.boolean() }),
    done: importReportSchema,
  },
} as const;
