import { analyzeHealth } from '../../main/health/analyze';
import { monitoringFor } from '../../main/health/cloudwatch';
import { findingsAtLeast, healthMarkdown, SEVERITIES } from '../../main/health/markdown';
import { newMigrationId } from '../../main/migration/store';
import { healthSeveritySchema, healthWindowSchema } from '../../shared/ipc/health';
import { emit, parseFlags } from './command-io';
import { runMigrationCommand } from './migration-command';
import { CONNECTION_HELP, connectionOptions, positiveNumber, requireTable } from './migration-flags';
import { UsageError } from './types';

const HELP = `Usage: dynotable health --table T [options]

A table's health: partition keys that take most items or bytes, items near 400 KB, TTL values
DynamoDB will never expire (milliseconds, strings), indexes written but never read, and the
monthly cost at on-demand and provisioned prices, from a sample (or a full scan) plus CloudWatch.
Exit code: 0 no finding at or above --fail-on, 1 some, 2 error (one line on stderr).

${CONNECTION_HELP}
  --full                    Scan every item instead of sampling.
  --sample N                Items the sample aims at (default 1000).
  --window W                CloudWatch's window: 3h, 24h (default), 7d or 30d.
  --format F                json (default) or md.
  --fail-on S               Exit 1 on a finding of severity S or worse: info, warning, critical
                            (default critical).
  With --endpoint (DynamoDB Local), CloudWatch is read from DYNOTABLE_CLOUDWATCH_ENDPOINT if set.`;

export async function run(argv: string[]): Promise<number> {
  const { values } = parseFlags(argv, {
    ...connectionOptions,
    full: { type: 'boolean', default: false },
    sample: { type: 'string' },
    window: { type: 'string' },
    'fail-on': { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const table = requireTable(values);
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'md')
    throw new UsageError(`--format wants json or md, not "${format}".`);
  const window = healthWindowSchema.safeParse(values.window ?? '24h');
  if (!window.success) throw new UsageError(`--window wants 3h, 24h, 7d or 30d, not "${values.window}".`);
  const failOn = healthSeveritySchema.safeParse(values['fail-on'] ?? 'critical');
  if (!failOn.success)
    throw new UsageError(`--fail-on wants ${SEVERITIES.join(', ')}, not "${values['fail-on']}".`);
  if (values.full && values.sample !== undefined)
    throw new UsageError('Choose --full or --sample N, not both.');
  const sampleSize = positiveNumber(values.sample, '--sample', 100_000);
  return runMigrationCommand('health', values, async ({ client, signal, print }) => {
    const monitoring = monitoringFor(
      { region: client.config.region, credentials: client.config.credentials, endpoint: values.endpoint },
      false,
    );
    const report = await analyzeHealth({
      client,
      monitoring,
      connectionId: 'cli',
      reportId: newMigrationId('health'),
      table,
      mode: values.full ? 'full' : 'sample',
      ...(sampleSize !== undefined ? { sampleSize: Math.max(10, Math.round(sampleSize)) } : {}),
      window: window.data,
      signal,
      onProgress: (p) => print(p.message ?? ''),
    });
    print('');
    await emit(format === 'md' ? healthMarkdown(report) : `${JSON.stringify(report, null, 2)}\n`, values.out);
    if (!values.quiet) {
      process.stderr.write(`${report.draw.description}\n`);
      if (report.cloudWatch.message) process.stderr.write(`${report.cloudWatch.message}\n`);
    }
    return findingsAtLeast(report, failOn.data) > 0 ? 1 : 0;
  });
}
