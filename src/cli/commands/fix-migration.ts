import { fixPolicySchema, type FixPlanSummary, type FixResult } from '../../shared/ipc/migration';
import type { Progress } from '../../shared/ipc/operations';
import { doneSchemaOf } from '../../shared/ipc/contract';
import { startFixPlan, startFixRun } from '../../main/migration/fix-service';
import { assertWritable } from '../../main/dynamo/writes/guards';
import { emit, parseFlags } from './command-io';
import { runOperation } from './command-core';
import { type MigrationRun, runMigrationCommand } from './migration-command';
import { CONNECTION_HELP, connectionOptions, positiveNumber, requireTable } from './migration-flags';
import { UsageError } from './types';

const HELP = `Usage: dynotable fix-migration --table T [--dry-run] [options]

Moves each top-level "a.b" attribute into the nested path a → b and removes it, and optionally
converts ISO date strings to epoch milliseconds, "true"/"false" strings to BOOL and TTL values
in epoch milliseconds to epoch seconds. Every write is one conditional UpdateItem that
succeeds only while the values are still what the scan saw: a concurrent change is skipped,
never overwritten. Always try --dry-run first: it prints the count and sample requests.

Exit code: 0 nothing left to do; 1 some items need a look (review, changed meanwhile) or, with
--dry-run, there is something to write; 2 error or failed writes.

${CONNECTION_HELP}
  --dry-run                 Plan only: print counts and sample requests, write nothing.
  --policy P                When the "a.b" and nested values differ: shadow-wins, nested-wins
                            or review (default: review — list them, change nothing).
  --convert-dates           Also convert ISO-8601 strings to epoch milliseconds (not on key attributes).
  --date-path PATH          Convert only at this path (repeatable), as the report writes it.
  --bool-path PATH          Rewrite "true"/"false" strings at PATH as BOOL (booleanAsString;
                            repeatable, only the paths named).
  --document-path PATH      Rewrite JSON text at PATH as the map or list it spells, numbers kept
                            digit for digit (documentAsString; repeatable, only the paths named).
                            Text that cannot be stored (a number DynamoDB cannot hold) is left
                            for review.
  --ttl-seconds             Rewrite TTL values in epoch milliseconds as epoch seconds
                            (ttlMilliseconds; the TTL attribute DescribeTimeToLive names).
  --set-to-list PATH        Rewrite string and number sets at PATH as lists, for a model that
                            declares an array (setListMix; repeatable).
  --list-to-set PATH        Rewrite lists of strings or of numbers at PATH as sets, for a model
                            that declares a set (setListMix; repeatable). A list that cannot be a
                            set (empty, mixed, repeating a value) is left for review.
  --writes-per-second N     Write capacity units per second (default 50).
  --format json|md          Output format (default json).`;

function markdown(plan: FixPlanSummary, result?: FixResult): string {
  const lines = [
    `Items scanned: ${plan.itemsScanned}`,
    `Updates planned: ${plan.updates} (moves ${plan.moves}, removals ${plan.removals}, date conversions ${plan.dateConversions}, rewrites ${plan.rewrites ?? 0})`,
    `Left for review: ${plan.review}`,
  ];
  if (result)
    lines.push(
      `Written: ${result.written}`,
      `Skipped because changed: ${result.skippedChanged}`,
      `Failed: ${result.failed}`,
      `Throttled writes (retried slower): ${result.throttledRequests ?? 0}`,
    );
  else lines.push('', 'Sample requests:', '```json', JSON.stringify(plan.sampleRequests, null, 2), '```');
  if (plan.reviewSamples.length > 0)
    lines.push(
      '',
      'For review:',
      ...plan.reviewSamples.map((r) => `- ${JSON.stringify(r.key)} ${r.attribute}: ${r.reason}`),
    );
  return `${lines.join('\n')}\n`;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseFlags(argv, {
    ...connectionOptions,
    'dry-run': { type: 'boolean', default: false },
    policy: { type: 'string' },
    'convert-dates': { type: 'boolean', default: false },
    'date-path': { type: 'string', multiple: true },
    'bool-path': { type: 'string', multiple: true },
    'document-path': { type: 'string', multiple: true },
    'ttl-seconds': { type: 'boolean', default: false },
    'set-to-list': { type: 'string', multiple: true },
    'list-to-set': { type: 'string', multiple: true },
    'writes-per-second': { type: 'string' },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const table = requireTable(values);
  const policy = fixPolicySchema.safeParse(values.policy ?? 'review');
  if (!policy.success)
    throw new UsageError(
      `--policy wants shadow-wins, nested-wins or review, not "${String(values.policy)}".`,
    );
  const format = values.format ?? 'json';
  if (format !== 'json' && format !== 'md')
    throw new UsageError(`--format wants json or md, not "${format}".`);
  const writesPerSecond = positiveNumber(values['writes-per-second'], '--writes-per-second', 100_000);
  return runMigrationCommand('fix-migration', values, async (run) => {
    // A dry run writes nothing; a real one is refused at once on a read-only connection, with the app's sentence.
    if (!values['dry-run']) assertWritable(run.connection);
    const print = (p: Progress) => run.print(p.message ?? '');
    // The app's fix service: the plan is kept in the data folder's job store, as the Pre-flight view's are.
    const planned = await runOperation(
      run.ctx,
      (requestId) =>
        startFixPlan(
          {
            requestId,
            connectionId: run.connection.id,
            table,
            policy: policy.data,
            convertDates: values['convert-dates'],
            ...(values['date-path'] ? { datePaths: values['date-path'] } : {}),
            ...(values['bool-path'] ? { booleanPaths: values['bool-path'] } : {}),
            ...(values['document-path'] ? { documentPaths: values['document-path'] } : {}),
            ...(values['ttl-seconds'] ? { ttlToSeconds: true } : {}),
            ...(values['set-to-list'] ? { setToListPaths: values['set-to-list'] } : {}),
            ...(values['list-to-set'] ? { listToSetPaths: values['list-to-set'] } : {}),
            ...(run.segments !== undefined ? { segments: run.segments } : {}),
            ...(run.limit ? { limit: run.limit } : {}),
          },
          run.ctx,
        ),
      { signal: run.signal, onProgress: print },
    );
    if (planned.type === 'cancelled') return stopped(run);
    const plan = doneSchemaOf('migration:fixPlan').parse(planned.value);
    let result: FixResult | undefined;
    if (!values['dry-run'] && plan.updates > 0) {
      // Its writes go through the app's write door, journaled for undo under the connection.
      const ran = await runOperation(
        run.ctx,
        (requestId) =>
          startFixRun(
            {
              requestId,
              connectionId: run.connection.id,
              planId: plan.planId,
              ...(writesPerSecond !== undefined ? { writesPerSecond } : {}),
            },
            run.ctx,
          ),
        { signal: run.signal, onProgress: print },
      );
      if (ran.type === 'cancelled') return stopped(run);
      result = doneSchemaOf('migration:fixRun').parse(ran.value);
    }
    run.print('');
    const { sampleRequests, ...counts } = builtOf(plan);
    const body =
      format === 'md'
        ? markdown(plan, result)
        : `${JSON.stringify(result ? { planId: plan.planId, ...counts, result } : { planId: plan.planId, ...counts, sampleRequests }, null, 2)}\n`;
    await emit(body, values.out);
    if (!result) return plan.updates + plan.review > 0 ? 1 : 0;
    if (result.failed > 0) return 2;
    return result.skippedChanged + plan.review > 0 ? 1 : 0;
  });
}

/** The plan's counts and samples, as the command has always printed them (without the app's bookkeeping). */
function builtOf(plan: FixPlanSummary) {
  const {
    planId: _planId,
    connectionId: _connectionId,
    table: _table,
    policy: _policy,
    convertDates: _convertDates,
    createdAt: _createdAt,
    readOnly: _readOnly,
    ttlOnly: _ttlOnly,
    ...built
  } = plan;
  return built;
}

function stopped(run: MigrationRun): number {
  run.print('');
  process.stderr.write(
    'dynotable fix-migration: stopped; what was written stays, and each write is journaled for undo (Cancelled)\n',
  );
  return 2;
}
