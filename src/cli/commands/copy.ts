import { copyStartInput, type CopyReport, type CopyStartInput } from '../../shared/ipc/copy';
import type { CoreContext } from '../../main/core/context';
import {
  assertDistinct,
  discardCopy,
  listCopies,
  resumeCopy,
  startCopy,
} from '../../main/dynamo/copy/copy-service';
import { rateProblem } from '../../main/dynamo/copy/copy-capacity';
import { AdHocConnections } from '../../main/aws/ad-hoc-client';
import { withCliCore } from '../cli-core';
import { processTerminal, terminalMfaPrompt } from '../terminal-mfa';
import { abortOnSignal, failureLine, parseFlags, progressPrinter } from './command-io';
import { connectionOf, runOperation } from './command-core';
import { positiveNumber, segmentsOf } from './migration-flags';
import { UsageError } from './types';

const HELP = `Usage: dynotable copy --from-table T --to-table T2 [options]

Copies every item of a table into another table, on the same endpoint or another account,
region or DynamoDB Local, losslessly (binary, sets, nested values, 38-digit numbers, any
attribute name). Then reads both sides again and compares counts and checksums.
Prints a JSON report. Exit code: 0 the target holds the source's items, 1 it does not, 2 error.

  --from-table T            The source table (required).
  --from-connection NAME    A connection saved in DynoTable (its name or id) instead of the three below;
                            its read-only and production settings hold.
  --from-profile P          Source AWS profile; default: the default chain.
  --from-region R           Source region; default: $AWS_REGION or the profile's.
  --from-endpoint URL       Source endpoint override (DynamoDB Local, LocalStack).
  --to-table T2             The target table (required).
  --to-connection NAME, --to-profile P, --to-region R, --to-endpoint URL
                            The same for the target. A write to a saved connection is in its History
                            in the app (undo), as the app's own copies are.
  --create-table            Create the target from the source's definition (keys, indexes, TTL, billing) when missing.
  --include-tags            With --create-table: copy the source's tags too.
  --if-exists POLICY        skip (attribute_not_exists), overwrite (default), or newer:ATTR (write
                            only where the target's ATTR is lower than the source's).
  --prefix FROM=TO          Rewrite key values starting with FROM to start with TO. Repeatable.
  --drop ATTR               Leave ATTR out of every item. Repeatable.
  --rename FROM=TO          Write FROM under the name TO. Repeatable.
  --segments N              Parallel Scan segments and writers, 1–64 (default 4).
  --read-rate N|P%          Read at most N items per second, or P% of the source's provisioned
                            read capacity (RCU, from DescribeTable; refused on an on-demand table).
  --write-rate N|P%         Write at most N items per second, or P% of the target's provisioned WCU.
  --no-verify               Skip the verification pass (exit 0 then means nothing failed or was skipped).
  --resume                  Continue the last stopped copy between these two tables (after Ctrl+C,
                            a crash or expired credentials) from its checkpoint.
  --list                    List the unfinished copies on this machine (from their checkpoints) and exit.
  --discard COPY_ID         Forget an unfinished copy (its checkpoint); what it wrote stays.
  --format json|table       Report format (default json).
  --quiet                   No progress on stderr.`;

const options = {
  'from-table': { type: 'string' },
  'from-connection': { type: 'string' },
  'from-profile': { type: 'string' },
  'from-region': { type: 'string' },
  'from-endpoint': { type: 'string' },
  'to-table': { type: 'string' },
  'to-connection': { type: 'string' },
  'to-profile': { type: 'string' },
  'to-region': { type: 'string' },
  'to-endpoint': { type: 'string' },
  'create-table': { type: 'boolean', default: false },
  'include-tags': { type: 'boolean', default: false },
  'if-exists': { type: 'string', default: 'overwrite' },
  prefix: { type: 'string', multiple: true },
  drop: { type: 'string', multiple: true },
  rename: { type: 'string', multiple: true },
  segments: { type: 'string' },
  'read-rate': { type: 'string' },
  'write-rate': { type: 'string' },
  'no-verify': { type: 'boolean', default: false },
  resume: { type: 'boolean', default: false },
  list: { type: 'boolean', default: false },
  discard: { type: 'string' },
  format: { type: 'string', default: 'json' },
  quiet: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function pairs(values: string[] | undefined, flag: string): { from: string; to: string }[] {
  return (values ?? []).map((text) => {
    const at = text.indexOf('=');
    if (at <= 0) throw new UsageError(`${flag} wants FROM=TO, not "${text}".`);
    return { from: text.slice(0, at), to: text.slice(at + 1) };
  });
}

function policyOf(text: string) {
  if (text === 'skip' || text === 'overwrite') return { policy: text };
  if (text.startsWith('newer:') && text.length > 'newer:'.length)
    return { policy: 'newer' as const, attribute: text.slice('newer:'.length) };
  throw new UsageError(`--if-exists wants skip, overwrite or newer:ATTRIBUTE, not "${text}".`);
}

/** `N` items per second, or `P%` of provisioned capacity. */
function rateFlag<R extends string, S extends string>(
  text: string | undefined,
  flag: string,
  rate: R,
  share: S,
): Partial<Record<R | S, number>> {
  if (text === undefined) return {};
  const out: Partial<Record<R | S, number>> = {};
  if (!text.endsWith('%')) out[rate] = positiveNumber(text, flag);
  else out[share] = (positiveNumber(text.slice(0, -1), flag, 100) ?? 100) / 100;
  return out;
}

function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required.`);
  return value;
}

function table(report: CopyReport): string {
  const v = report.verified;
  const rows: [string, string][] = [
    ['source', report.source.table],
    ['target', `${report.target.table}${report.created ? ' (created)' : ''}`],
    ['read', String(report.itemsRead)],
    ['written', String(report.itemsWritten)],
    ['skipped', String(report.itemsSkipped)],
    ['failed', String(report.itemsFailed)],
    ...(v
      ? ([
          ['source items', String(v.sourceCount)],
          ['target items', String(v.targetCount)],
          [
            'checksums',
            v.checksumsMatch
              ? `match (${v.sourceChecksum})`
              : `differ (${v.sourceChecksum} ≠ ${v.targetChecksum})`,
          ],
        ] as [string, string][])
      : []),
    ...report.notes.map((n): [string, string] => ['note', n]),
  ];
  return `${rows.map(([k, v]) => `${k.padEnd(13)} ${v}`).join('\n')}\n`;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseFlags(argv, options);
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (values.format !== 'json' && values.format !== 'table')
    throw new UsageError(`--format wants json or table, not "${values.format}".`);
  const abort = abortOnSignal();
  const adHoc = new AdHocConnections(terminalMfaPrompt(processTerminal(), abort.signal));
  try {
    return await withCliCore(adHoc, (ctx) =>
      values.list || values.discard !== undefined
        ? checkpoints(ctx, values.discard, values.format)
        : copy(ctx, adHoc, values, abort.signal),
    );
  } finally {
    abort.dispose();
  }
}

type Values = ReturnType<typeof parseFlags<typeof options>>['values'];

/** A copy (or its resume) through the app's copy service: its checks, journal and checkpoints. */
async function copy(ctx: CoreContext, adHoc: AdHocConnections, values: Values, signal: AbortSignal) {
  const from = await connectionOf(
    ctx,
    adHoc,
    {
      connection: values['from-connection'],
      profile: values['from-profile'],
      region: values['from-region'],
      endpoint: values['from-endpoint'],
    },
    'from-',
  );
  const to = await connectionOf(
    ctx,
    adHoc,
    {
      connection: values['to-connection'],
      profile: values['to-profile'],
      region: values['to-region'],
      endpoint: values['to-endpoint'],
    },
    'to-',
  );
  const parsed = copyStartInput.safeParse({
    requestId: 'cli-copy-run',
    source: { connectionId: from.id, table: required(values['from-table'], '--from-table') },
    target: {
      connectionId: to.id,
      table: required(values['to-table'], '--to-table'),
      create: values['create-table'],
      includeTags: values['include-tags'],
    },
    mapping: {
      prefixes: pairs(values.prefix, '--prefix'),
      drop: values.drop ?? [],
      rename: pairs(values.rename, '--rename'),
    },
    conflict: policyOf(values['if-exists']),
    segments: segmentsOf(values.segments) ?? 4,
    ...rateFlag(values['read-rate'], '--read-rate', 'readRate', 'readShare'),
    ...rateFlag(values['write-rate'], '--write-rate', 'writeRate', 'writeShare'),
    verify: !values['no-verify'],
  });
  if (!parsed.success)
    throw new UsageError(parsed.error.issues[0]?.message ?? 'The flags do not make a copy.');
  const { requestId: _unused, ...settings } = parsed.data;
  assertDistinct(settings, from.id === to.id);
  const rates = rateProblem(settings);
  if (rates) throw new UsageError(rates);

  const print = progressPrinter(values.quiet);
  try {
    // Nothing to resume is a mistake on the command line, said as such before anything starts.
    const resumed = values.resume ? await lastStopped(ctx, settings) : undefined;
    const end = await runOperation(
      ctx,
      (requestId) =>
        resumed === undefined
          ? startCopy(ctx, { requestId, ...settings })
          : resumeCopy(ctx, requestId, resumed),
      { signal, onProgress: (progress) => print(progress.message ?? '') },
    );
    print('');
    if (end.type === 'cancelled') return stopped();
    const report = end.value as CopyReport;
    process.stdout.write(values.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : table(report));
    const holds = report.verified
      ? report.verified.checksumsMatch
      : report.itemsFailed === 0 && report.itemsSkipped === 0;
    return holds ? 0 : 1;
  } catch (error) {
    print('');
    if (signal.aborted) return stopped();
    if (error instanceof UsageError) throw error;
    process.stderr.write(failureLine('copy', error));
    return 2;
  }
}

function stopped(): number {
  process.stderr.write(
    'dynotable copy: stopped; run the same command with --resume to continue (Cancelled)\n',
  );
  return 2;
}

/** The newest stopped copy between the same two sides and tables. */
async function lastStopped(
  ctx: CoreContext,
  settings: Pick<CopyStartInput, 'source' | 'target'>,
): Promise<string> {
  const same = (await listed(ctx)).find(
    (c) =>
      c.state !== 'complete' &&
      c.source.connectionId === settings.source.connectionId &&
      c.source.table === settings.source.table &&
      c.target.connectionId === settings.target.connectionId &&
      c.target.table === settings.target.table,
  );
  if (!same)
    throw new UsageError(
      `There is no stopped copy from ${settings.source.table} to ${settings.target.table} with these flags to resume.`,
    );
  return same.copyId;
}

/** The checkpoints on disk; one set aside as unreadable is named on stderr, as every failure is. */
async function listed(ctx: CoreContext) {
  const { copies, setAside = [] } = await listCopies(ctx);
  for (const notice of setAside) process.stderr.write(`dynotable copy: ${notice.message}\n`);
  return copies;
}

/** --list and --discard: the checkpoints on disk, which outlive the process that wrote them. */
async function checkpoints(ctx: CoreContext, discard: string | undefined, format: string): Promise<number> {
  if (discard !== undefined) {
    const { discarded } = await discardCopy(ctx, discard).catch((error: unknown) => {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    });
    if (!discarded) throw new UsageError(`There is no copy ${discard} on this machine.`);
    process.stdout.write(
      format === 'json' ? `${JSON.stringify({ discarded: discard })}\n` : `discarded ${discard}\n`,
    );
    return 0;
  }
  const unfinished = (await listed(ctx)).filter((c) => c.state !== 'complete');
  process.stdout.write(
    format === 'json'
      ? `${JSON.stringify(unfinished, null, 2)}\n`
      : unfinished
          .map(
            (c) =>
              `${c.copyId}  ${c.source.table} → ${c.target.table}  ${c.itemsWritten} written  saved ${c.savedAt}\n`,
          )
          .join('') || 'No unfinished copies.\n',
  );
  return 0;
}
