import path from 'node:path';
import { AdHocConnections } from '../../main/aws/ad-hoc-client';
import type { CoreContext } from '../../main/core/context';
import {
  beginTableExport,
  listTableExports,
  openExportFolderAt,
  openS3Export,
  startTableExport as startS3Export,
} from '../../main/exports/export-service';
import type { OpenedExport } from '../../main/exports/export-open';
import type { ExportState } from '../../main/exports/export-control';
import { checkExportPath } from '../../main/dynamo/transfer/transfer-paths';
import { resumeTableExport, startTableExport } from '../../main/dynamo/transfer/table-export-service';
import { ErrorCodes } from '../../shared/errors';
import { tableExportIdSchema, transferFormatSchema } from '../../shared/ipc/transfer';
import { withCliCore } from '../cli-core';
import { processTerminal, terminalMfaPrompt } from '../terminal-mfa';
import { abortOnSignal, failureLine, parseFlags, progressPrinter } from './command-io';
import { connectionOf, runOperation } from './command-core';
import { UsageError } from './types';

const HELP = `Usage: dynotable export <table|list|start|open> [options]

  dynotable export table --table T [--index I] --out FILE [--format jsonl|dynamodb-json|csv] [--overwrite]
  dynotable export table --resume ID
                                                     Reads the whole table (or index) with a Scan to
                                                     FILE, written when complete; costs about one read
                                                     unit per 8 KB. Ctrl+C stops it resumably and prints
                                                     its ID; --resume goes on where it stopped.

DynamoDB's own S3 exports (ExportTableToPointInTime): no read capacity of the table is used.
DynamoDB Local has no exports; use \`export table\` or \`dynotable copy\` instead.

  dynotable export list  --table T                   The table's exports, one JSON object a line.
  dynotable export start --table T --bucket B [--prefix P] [--since ISO [--view NEW_IMAGE]] [--wait]
                                                     Starts a full export (or, with --since, the
                                                     changes since then); --wait follows it to its end.
  dynotable export open  --bucket B [--prefix P] [--export-id ID]   or   --folder DIR
                                                     Prints every item of a DynamoDB-JSON export as
                                                     {"Item": …} lines, later incremental exports applied.

  --profile P, --region R, --endpoint URL            Where DynamoDB and S3 are (an endpoint serves both,
                                                     as LocalStack's does); default: the default chain.
  --connection NAME                                  A connection saved in DynoTable instead (name or id).
  --quiet                                            No progress on stderr.
Exit code: 0 done (an export COMPLETED), 1 an export FAILED, 2 error.`;

const options = {
  table: { type: 'string' },
  bucket: { type: 'string' },
  prefix: { type: 'string' },
  since: { type: 'string' },
  view: { type: 'string', default: 'NEW_AND_OLD_IMAGES' },
  'export-id': { type: 'string' },
  index: { type: 'string' },
  out: { type: 'string' },
  format: { type: 'string', default: 'jsonl' },
  overwrite: { type: 'boolean', default: false },
  resume: { type: 'string' },
  folder: { type: 'string' },
  wait: { type: 'boolean', default: false },
  profile: { type: 'string' },
  region: { type: 'string' },
  endpoint: { type: 'string' },
  connection: { type: 'string' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required.`);
  return value;
}

const line = (value: unknown): void => void process.stdout.write(`${JSON.stringify(value)}\n`);

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, options, { allowPositionals: true });
  const action = positionals[0];
  if (values.help || !action) {
    process.stdout.write(`${HELP}\n`);
    return values.help ? 0 : 2;
  }
  if (!['table', 'list', 'start', 'open'].includes(action))
    throw new UsageError(`dynotable export wants table, list, start or open, not "${action}".`);
  const abort = abortOnSignal();
  const print = progressPrinter(values.quiet);
  const adHoc = new AdHocConnections(terminalMfaPrompt(processTerminal(), abort.signal));
  // `export table --resume ID` goes on with the flags it is given, whatever the first run's were.
  adHoc.serveOthersWith(values);
  try {
    return await withCliCore(adHoc, async (ctx) => {
      try {
        const connection = await connectionOf(ctx, adHoc, values);
        if (action === 'table') return await exportTable(ctx, connection.id, values, print, abort.signal);
        // DynamoDB's S3 exports through the app's export service (exports:list|start|open).
        const connectionId = connection.id;
        if (action === 'list') {
          const table = required(values.table, '--table');
          for (const state of (await listTableExports(ctx, { connectionId, table })).exports) line(state);
          return 0;
        }
        if (action === 'start') return await start(ctx, connectionId, values, print, abort.signal);
        return await open(ctx, connectionId, values, print, abort.signal);
      } catch (error) {
        print('');
        if (error instanceof UsageError) throw error;
        process.stderr.write(failureLine('export', error));
        return 2;
      }
    });
  } finally {
    abort.dispose();
  }
}

/** `export table`: the app's whole-table export service, its checkpoints in the same data folder. */
async function exportTable(
  ctx: CoreContext,
  connectionId: string,
  values: {
    table?: string;
    index?: string;
    out?: string;
    format: string;
    overwrite: boolean;
    resume?: string;
  },
  print: (line: string) => void,
  signal: AbortSignal,
): Promise<number> {
  const resume = values.resume === undefined ? undefined : resumeId(values.resume);
  let start: (requestId: string) => Promise<{ exportId: string }>;
  if (resume !== undefined) {
    start = (requestId) =>
      resumeTableExport(ctx, requestId, resume).catch((error: unknown) => {
        // Nothing stopped under that id is a mistake on the command line, said as such.
        if ((error as { code?: unknown }).code === ErrorCodes.notFound)
          throw new UsageError((error as Error).message);
        throw error;
      });
  } else {
    const format = transferFormatSchema.safeParse(values.format);
    if (!format.success)
      throw new UsageError(`--format wants jsonl, dynamodb-json or csv, not "${values.format}".`);
    const out = path.resolve(required(values.out, '--out'));
    const target = await checkExportPath(
      { path: out, overwrite: values.overwrite },
      { mode: 'desktop', dataDir: ctx.dataDir },
    );
    const table = required(values.table, '--table');
    start = (requestId) =>
      startTableExport(
        ctx,
        {
          requestId,
          connectionId,
          table,
          index: values.index,
          format: format.data,
          overwrite: values.overwrite,
        },
        target,
      );
  }
  let exportId = resume;
  let items = 0;
  const end = await runOperation(ctx, async (requestId) => ({ exportId } = await start(requestId)), {
    signal,
    onProgress: (progress) => {
      items = progress.items;
      print(
        `${progress.items.toLocaleString('en-US')} items, ${progress.consumedCapacity.toFixed(1)} read units${progress.message ? ` — ${progress.message}` : ''}`,
      );
    },
  });
  print('');
  if (end.type === 'cancelled' || !end.value) {
    process.stderr.write(
      `dynotable export: stopped at ${(end.type === 'cancelled' ? end.progress.items : items).toLocaleString('en-US')} items; run \`dynotable export table --resume ${exportId ?? ''}\` to go on (Cancelled)\n`,
    );
    return 2;
  }
  line(end.value);
  return 0;
}

function resumeId(text: string): string {
  const id = tableExportIdSchema.safeParse(text);
  if (!id.success)
    throw new UsageError(`--resume wants the ID a stopped export printed (texp-…), not "${text}".`);
  return id.data;
}

/** `export start`: asks for the export; with --wait follows it as the app does, to its end. */
async function start(
  ctx: CoreContext,
  connectionId: string,
  values: { table?: string; bucket?: string; prefix?: string; since?: string; view: string; wait: boolean },
  print: (line: string) => void,
  signal: AbortSignal,
): Promise<number> {
  const table = required(values.table, '--table');
  const view = values.view === 'NEW_IMAGE' ? ('NEW_IMAGE' as const) : ('NEW_AND_OLD_IMAGES' as const);
  const since = values.since ? new Date(values.since) : undefined;
  if (since && Number.isNaN(since.getTime()))
    throw new UsageError(`--since wants an ISO date and time, not "${values.since}".`);
  const input = {
    connectionId,
    table,
    bucket: required(values.bucket, '--bucket'),
    ...(values.prefix ? { prefix: values.prefix } : {}),
    format: 'DYNAMODB_JSON' as const,
    ...(since ? { incremental: { from: since.toISOString(), view } } : {}),
  };
  let last: ExportState;
  if (values.wait) {
    const end = await runOperation(ctx, (requestId) => startS3Export(ctx, { ...input, requestId }), {
      signal,
      onProgress: (progress) => print(progress.message ?? ''),
    });
    print('');
    if (end.type === 'cancelled' || !end.value) {
      process.stderr.write('dynotable export: stopped following; the export goes on in AWS (Cancelled)\n');
      return 2;
    }
    last = end.value as ExportState;
  } else last = await beginTableExport(ctx, input);
  line(last);
  return last.status === 'FAILED' ? 1 : 0;
}

/**
 * `export open`: the app's opening of an export (S3 or a folder) as a result set, then its items
 * printed a bounded window at a time, so a large export never sits in this process whole.
 */
async function open(
  ctx: CoreContext,
  connectionId: string,
  values: { bucket?: string; prefix?: string; folder?: string; 'export-id'?: string },
  print: (line: string) => void,
  signal: AbortSignal,
): Promise<number> {
  const { folder } = values;
  const exportId = values['export-id'];
  const end = await runOperation(
    ctx,
    (requestId) =>
      folder
        ? openExportFolderAt(ctx, { connectionId, requestId, exportId }, path.resolve(folder))
        : openS3Export(ctx, {
            connectionId,
            requestId,
            bucket: required(values.bucket, '--bucket'),
            ...(values.prefix ? { prefix: values.prefix } : {}),
            ...(exportId ? { exportId } : {}),
          }),
    { signal, onProgress: ({ items }) => print(`${items.toLocaleString('en-US')} items read`) },
  );
  print('');
  if (end.type === 'cancelled' || !end.value) return 2;
  const opened = end.value as OpenedExport;
  for (let offset = 0; offset < opened.items; offset += 1000) {
    const window = await ctx.resultSets.window(opened.resultSetId, offset, 1000);
    for (const item of window.rows) line({ Item: item });
  }
  const from = folder ? folder : `s3://${values.bucket ?? ''}/${values.prefix ?? ''}`;
  process.stderr.write(
    `${opened.name}: ${opened.items.toLocaleString('en-US')} items from ${from}${opened.incrementals.length ? ` (${opened.incrementals.length} incremental exports applied)` : ''}\n`,
  );
  return 0;
}
