import { readFile } from 'node:fs/promises';
import { exportFormatSchema } from '../../shared/ipc/migration';
import {
  findingsOfExpectationsFile,
  mergeExpectations,
  parseExpectArgument,
  parseExpectationsFile,
} from '../../main/migration/expectations';
import { exportReport } from '../../main/migration/export';
import { readDynamooseSchema } from '../../main/migration/dynamoose-schema';
import { expectationsOfOrmModel } from '../../main/migration/orm-expectations';
import { withExpectations } from '../../main/migration/verdict';
import { migrationStore, startMigrationScan } from '../../main/migration/service';
import { emit, parseFlags } from './command-io';
import { runMigrationCommand, runResumableJob } from './migration-command';
import { CONNECTION_HELP, connectionOptions, requireTable, resumeIdOf } from './migration-flags';
import { UsageError } from './types';

const HELP = `Usage: dynotable scan-migration --table T [options]

Scans a whole table for what breaks a move off dynamoose: top-level attributes named like
"a.b" (dynamoose 4.x nested updates), Dates stored as ISO strings or epoch seconds (at any
depth, set members included), next to epoch numbers or alone, and what older releases left
(findings by kind: booleanAsString, documentAsString, setListMix, ttlMilliseconds, ttlNotNumber,
ttlMissing, ttlExpiredPresent, dateLostToEmptyMap, upsertResidue, mapTruncated, dottedKeyInMap,
keyAttributeDate, staleCombine; see docs/MIGRATION.md).
Prints the report. Exit code: 0 nothing left to do, 1 something is (a data fix, or a model
setting not yet acknowledged), 2 error.
The scan is the app's: it is listed in the Pre-flight view of a saved --connection, and Ctrl+C
stops it resumably and prints its ID (resume it here with --resume, or in the app).

${CONNECTION_HELP}
  --format json|csv|md      Report format (default json).
  --expect PATH=STORAGE     Acknowledge a model setting already made: the models store Dates at
                            PATH as STORAGE (iso, seconds or millis), e.g. --expect occurredAt=iso.
                            Repeatable. Acknowledged settings no longer fail the run; one the data
                            contradicts does.
  --expect KIND:PATH        Acknowledge a finding deliberately, e.g. --expect booleanAsString:active
                            (every entity at that path). Repeatable.
  --expectations FILE       The same from a JSON file kept with the models:
                            {"table": "T", "dateStorage": [{"path": "occurredAt", "storage": "iso"}],
                             "findings": [{"kind": "booleanAsString", "path": "active"}]}
                            ("table" and "findings" optional; with "table" the file is refused for
                            other tables).
  --model FILE              The same from a dynotable-orm model file the Schema view generated:
                            each z.date() attribute is stored as its model's defaultDateStorage
                            (epoch ms when it has none). Settings from --expectations and
                            --expect win over it.
  --dynamoose-model FILE    The dynamoose schema file the table was written with (read as text,
                            never run): what it declares is checked against the items (type,
                            required, Date storage, stale Combine values), and the report's
                            "dynamoose" part lists its settings that change what the data means,
                            what the dynotable-orm model must say for each, and the behaviours
                            that change.
  --resume ID               Go on with the scan Ctrl+C stopped (give the same --table and
                            connection flags).
  --strict                  Kept for old pipelines: settings now fail the run unless acknowledged.`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseFlags(argv, {
    ...connectionOptions,
    strict: { type: 'boolean', default: false },
    expect: { type: 'string', multiple: true },
    expectations: { type: 'string' },
    model: { type: 'string' },
    'dynamoose-model': { type: 'string' },
    resume: { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const resume = resumeIdOf(values.resume);
  const table = requireTable(values);
  const format = exportFormatSchema.safeParse(values.format ?? 'json');
  if (!format.success)
    throw new UsageError(`--format wants json, csv or md, not "${String(values.format)}".`);
  const expected = (values.expect ?? []).map(parseExpectArgument);
  const flagged = expected.flatMap((e) => ('date' in e ? [e.date] : []));
  const file = values.expectations;
  const fileText = file ? await readExpectations(file, '--expectations') : undefined;
  const fromFile = file && fileText !== undefined ? parseExpectationsFile(fileText, file, table) : [];
  const acknowledgedFindings = [
    ...(file && fileText !== undefined ? findingsOfExpectationsFile(fileText, file, table) : []),
    ...expected.flatMap((e) => ('finding' in e ? [e.finding] : [])),
  ];
  const modelFile = values.model;
  const fromModel = modelFile
    ? expectationsOfOrmModel(await readExpectations(modelFile, '--model'), modelFile)
    : [];
  const expectations = mergeExpectations(fromModel, fromFile, flagged);
  const dynamooseFile = values['dynamoose-model'];
  const dynamoose = dynamooseFile
    ? {
        file: dynamooseFile,
        models: readDynamooseSchema(
          await readExpectations(dynamooseFile, '--dynamoose-model'),
          dynamooseFile,
        ),
      }
    : undefined;
  return runMigrationCommand('scan-migration', values, async (run) => {
    // The app's scan service: a job in the one job store, resumable here or in the app's Pre-flight view.
    const store = migrationStore(run.ctx);
    const scanId = await runResumableJob('scan-migration', run, {
      table,
      resume,
      start: async (base) => (await startMigrationScan(base, run.ctx, dynamoose ? { dynamoose } : {})).scanId,
    });
    if (scanId === undefined) return 2;
    // The report as scanned, with this command's acknowledgements (not the app's stored ones).
    const report = withExpectations(await store.loadReport(scanId), expectations, acknowledgedFindings);
    await emit(exportReport(report, format.data).content, values.out);
    if (!values.quiet) process.stderr.write(`${report.verdict.line}\n`);
    return report.verdict.actionNeeded ? 1 : 0;
  });
}

async function readExpectations(file: string, flag: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new UsageError(`${flag}: the file ${file} could not be read (${code}).`);
  }
}
