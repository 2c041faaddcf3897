import { exportFormatSchema } from '../../shared/ipc/migration';
import { exportReport } from '../../main/migration/export';
import { runMigrationScan } from '../../main/migration/scan-migration';
import { newMigrationId } from '../../main/migration/store';
import { emit, parseFlags } from './command-io';
import { runMigrationCommand } from './migration-command';
import { CONNECTION_HELP, connectionOptions, requireTable } from './migration-flags';
import { UsageError } from './types';

const HELP = `Usage: dynotable scan-migration --table T [options]

Scans a whole table for what breaks a move off dynamoose: top-level attributes named like
"a.b" (dynamoose 4.x nested updates) and Dates stored as ISO strings next to epoch numbers.
Prints the report. Exit code: 0 nothing needs fixing, 1 findings need fixing, 2 error.

${CONNECTION_HELP}
  --format json|csv|md      Report format (default json).
  --strict                  Exit 1 also when findings only need a model setting (ISO or seconds storage).`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseFlags(argv, { ...connectionOptions, strict: { type: 'boolean', default: false } });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const table = requireTable(values);
  const format = exportFormatSchema.safeParse(values.format ?? 'json');
  if (!format.success)
    throw new UsageError(`--format wants json, csv or md, not "${String(values.format)}".`);
  return runMigrationCommand('scan-migration', values, async ({ client, segments, limit, signal, print }) => {
    const { report } = await runMigrationScan({
      client,
      table,
      scanId: newMigrationId('scan'),
      segments,
      limit,
      signal,
      onProgress: (p) =>
        print(`${p.fraction !== undefined ? `${Math.round(p.fraction * 100)}% · ` : ''}${p.message ?? ''}`),
    });
    print('');
    await emit(exportReport(report, format.data).content, values.out);
    if (!values.quiet) process.stderr.write(`${report.verdict.line}\n`);
    return report.verdict.needsFix || (values.strict && report.verdict.settings.length > 0) ? 1 : 0;
  });
}
