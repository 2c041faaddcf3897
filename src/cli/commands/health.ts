import { loadHealthReport, startHealthAnalysis } from '../../main/health/service';
import { findingsAtLeast, healthMarkdown, SEVERITIES } from '../../main/health/markdown';
import { healthSeveritySchema, healthWindowSchema } from '../../shared/ipc/health';
import { emit, parseFlags } from './command-io';
import { runOperation } from './command-core';
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
  return runMigrationCommand('health', values, async (run) => {
    // The app's health service: the same read, CloudWatch client and recorded SQL reads, and the
    // table's last report kept for a saved --connection's Health tab. Ctrl+C cancels it like the
    // tab's Cancel; a health check keeps no checkpoint, in the app or here, so it is run again.
    const input = {
      connectionId: run.connection.id,
      table,
      mode: values.full ? ('full' as const) : ('sample' as const),
      ...(sampleSize !== undefined ? { sampleSize: Math.max(10, Math.round(sampleSize)) } : {}),
      window: window.data,
    };
    let reportId = '';
    const end = await runOperation(
      run.ctx,
      async (requestId) => ({ reportId } = await startHealthAnalysis({ ...input, requestId }, run.ctx)),
      { signal: run.signal, onProgress: (p) => run.print(p.message ?? '') },
    );
    run.print('');
    if (end.type === 'cancelled') {
      process.stderr.write('dynotable health: stopped; run the same command to check again (Cancelled)\n');
      return 2;
    }
    const report = loadHealthReport(reportId, run.ctx);
    await emit(format === 'md' ? healthMarkdown(report) : `${JSON.stringify(report, null, 2)}\n`, values.out);
    if (!values.quiet) {
      process.stderr.write(`${report.draw.description}\n`);
      if (report.cloudWatch.message) process.stderr.write(`${report.cloudWatch.message}\n`);
    }
    return findingsAtLeast(report, failOn.data) > 0 ? 1 : 0;
  });
}
