import { createResultSetStore } from '../../main/resultsets/store';
import { s3ClientOf } from '../../main/aws/s3-client';
import { tableSummary, keyAttributesOf } from '../../main/dynamo/table-metadata';
import {
  describeExport,
  type ExportState,
  follow,
  listExports,
  startExport,
} from '../../main/exports/export-control';
import { openExport } from '../../main/exports/export-open';
import { folderFiles, s3Files } from '../../main/exports/export-source';
import path from 'node:path';
import { transferFormatSchema } from '../../shared/ipc/transfer';
import { checkExportPath } from '../../main/dynamo/transfer/transfer-paths';
import { runTableExport } from '../../main/dynamo/transfer/table-export-run';
import { newTableExportCheckpoint } from '../../main/dynamo/transfer/table-export-service';
import { type TableExportCheckpoint, TableExportStore } from '../../main/dynamo/transfer/table-export-store';
import { adHocClient } from '../../main/aws/ad-hoc-client';
import { defaultDataDir } from '../data-dir';
import { processTerminal, terminalMfaPrompt } from '../terminal-mfa';
import { abortOnSignal, failureLine, parseFlags, progressPrinter } from './command-io';
import { UsageError } from './types';
import { AppFailure, ErrorCodes } from '../../shared/errors';

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
  const mfa = terminalMfaPrompt(processTerminal(), abort.signal);
  const dynamo = adHocClient({
    profile: values.profile,
    region: values.region,
    endpoint: values.endpoint,
    mfa,
  });
  try {
    if (action === 'table') return await exportTable(values, dynamo, print, abort.signal);
    if (action === 'list') {
      const table = required(values.table, '--table');
      const arn = (await tableSummary(dynamo, table)).arn ?? table;
      for (const state of await listExports(dynamo, arn)) line(state);
      return 0;
    }
    if (action === 'start') {
      const table = required(values.table, '--table');
      const view = values.view === 'NEW_IMAGE' ? 'NEW_IMAGE' : 'NEW_AND_OLD_IMAGES';
      const since = values.since ? new Date(values.since) : undefined;
      if (since && Number.isNaN(since.getTime()))
        throw new UsageError(`--since wants an ISO date and time, not "${values.since}".`);
      const started = await startExport(dynamo, {
        tableArn: (await tableSummary(dynamo, table)).arn ?? table,
        bucket: required(values.bucket, '--bucket'),
        ...(values.prefix ? { prefix: values.prefix } : {}),
        format: 'DYNAMODB_JSON',
        ...(since ? { incremental: { from: since, view } } : {}),
      });
      const last: ExportState = values.wait
        ? await follow(
            (signal) => describeExport(dynamo, started.exportArn, signal),
            (state) => print(`export ${state.status.toLowerCase()}`),
            abort.signal,
          )
        : started;
      print('');
      line(last);
      return last.status === 'FAILED' ? 1 : 0;
    }
    return await open(values, dynamo, print, abort.signal);
  } catch (error) {
    print('');
    // Nothing to resume is a mistake on the command line, said as such, not a failure of the export.
    if (error instanceof UsageError) throw error;
    process.stderr.write(failureLine('export', error));
    return 2;
  } finally {
    abort.dispose();
    dynamo.destroy();
  }
}

/** `export table`: the app's whole-table export, its checkpoints in the same data folder. */
async function exportTable(
  values: {
    table?: string;
    index?: string;
    out?: string;
    format: string;
    overwrite: boolean;
    resume?: string;
    endpoint?: string;
    profile?: string;
  },
  dynamo: ReturnType<typeof adHocClient>,
  print: (line: string) => void,
  signal: AbortSignal,
): Promise<number> {
  const store = new TableExportStore(defaultDataDir());
  let checkpoint: TableExportCheckpoint;
  if (values.resume) {
    checkpoint = await resumable(store, values.resume);
  } else {
    const format = transferFormatSchema.safeParse(values.format);
    if (!format.success)
      throw new UsageError(`--format wants jsonl, dynamodb-json or csv, not "${values.format}".`);
    const out = path.resolve(required(values.out, '--out'));
    const target = await checkExportPath(
      { path: out, overwrite: values.overwrite },
      { mode: 'desktop', dataDir: defaultDataDir() },
    );
    checkpoint = await newTableExportCheckpoint(
      dynamo,
      {
        connectionId: `cli:${values.endpoint ?? values.profile ?? 'default'}`,
        table: required(values.table, '--table'),
        index: values.index,
        format: format.data,
      },
      target,
    );
    await store.save(checkpoint);
  }
  const outcome = await runTableExport(dynamo, store, checkpoint, {
    signal,
    emit: (event) => {
      if (event.type === 'progress')
        print(
          `${event.progress.items.toLocaleString('en-US')} items, ${event.progress.consumedCapacity.toFixed(1)} read units${event.progress.message ? ` — ${event.progress.message}` : ''}`,
        );
    },
  });
  print('');
  if (!outcome.value) {
    process.stderr.write(
      `dynotable export: stopped at ${checkpoint.items.toLocaleString('en-US')} items; run \`dynotable export table --resume ${checkpoint.exportId}\` to go on (Cancelled)\n`,
    );
    return 2;
  }
  line(outcome.value);
  return 0;
}

/** Nothing to resume under that id is a mistake on the command line, said as such (exit 2), not a failure. */
async function resumable(store: TableExportStore, exportId: string): Promise<TableExportCheckpoint> {
  try {
    return await store.load(exportId);
  } catch (error) {
    if (
      error instanceof AppFailure &&
      (error.code === ErrorCodes.notFound || error.code === ErrorCodes.invalidInput)
    )
      throw new UsageError(
        `${error.message} See the stopped exports in the app's Export dialog of the table.`,
      );
    throw error;
  }
}

async function open(
  values: { bucket?: string; prefix?: string; folder?: string; endpoint?: string; 'export-id'?: string },
  dynamo: ReturnType<typeof adHocClient>,
  print: (line: string) => void,
  signal: AbortSignal,
): Promise<number> {
  const s3 = values.folder
    ? undefined
    : s3ClientOf({
        region: await dynamo.config.region(),
        credentials: dynamo.config.credentials,
        ...(values.endpoint ? { endpoint: values.endpoint } : {}),
      });
  const files = values.folder
    ? folderFiles(values.folder)
    : s3Files(s3!, required(values.bucket, '--bucket'), values.prefix ?? '', signal);
  const store = createResultSetStore();
  try {
    const opened = await openExport(files, store, {
      connectionId: 'cli',
      ...(values['export-id'] ? { exportId: values['export-id'] } : {}),
      signal,
      keysOf: (table) =>
        tableSummary(dynamo, table, signal).then(
          (summary) => keyAttributesOf(summary),
          () => undefined,
        ),
      onProgress: ({ items }) => print(`${items.toLocaleString('en-US')} items read`),
    });
    print('');
    // Bounded windows of the result set, so a large export never sits in this process whole.
    for (let offset = 0; offset < opened.items; offset += 1000) {
      const window = await store.window(opened.resultSetId, offset, 1000);
      for (const item of window.rows) line({ Item: item });
    }
    process.stderr.write(
      `${opened.name}: ${opened.items.toLocaleString('en-US')} items from ${files.describe()}${opened.incrementals.length ? ` (${opened.incrementals.length} incremental exports applied)` : ''}\n`,
    );
    return 0;
  } finally {
    await store.close();
    s3?.destroy();
  }
}
