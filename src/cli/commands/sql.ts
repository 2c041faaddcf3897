import { readFile } from 'node:fs/promises';
import { adHocClient } from '../../main/migration/cli-client';
import type { ResultTable } from '../../main/sql/executor/result';
import { csvRecords } from '../../main/csv/csv-text';
import { csvValue, jsonRow, textValue } from '../../main/sql/results/format';
import { SqlSession } from '../../main/sql/session';
import { SQL_DEFAULT_MAX_ITEMS } from '../../shared/ipc/sql';
import { processTerminal, terminalMfaPrompt } from '../terminal-mfa';
import { failureLine, parseFlags, progressPrinter } from './command-io';
import { UsageError } from './types';

const HELP = `Usage: dynotable sql "<statement>" [options]

Runs one SQL SELECT over DynamoDB with the same planner and engine as the app: partition-key
equalities become Queries, other conditions filters; joins, GROUP BY and aggregates run here.
Numbers keep all their digits. Exit code: 0 ok, 2 bad SQL or a connection error (one line).

  --profile P          AWS profile (SSO, assume-role, credential_process; an MFA code is asked on the terminal); default: the default chain.
  --region R           Region; default: $AWS_REGION or the profile's.
  --endpoint URL       Endpoint override (DynamoDB Local, LocalStack).
  --format F           json (an array of row objects, the default), csv or table.
  --file FILE          Read the statement from FILE ("-" for stdin) instead of the argument.
  --plan               Print the DynamoDB calls the statement would make (JSON) and exit.
  --max-items N        Stop each DynamoDB read after N items (default ${SQL_DEFAULT_MAX_ITEMS.toLocaleString('en-US')}).
  --local              Scan locally even a table whose size is past the scan limit (a quarter of
                       this machine's memory); without it such a statement reads nothing and fails.
  --quiet              No progress or warnings on stderr.

Tables are the connection's DynamoDB tables by name, and entity views of single-table designs
(users, orders, ... detected from key prefixes; "Table.view" when several tables have one).`;

async function statementOf(positionals: string[], file: string | undefined): Promise<string> {
  if (file !== undefined) {
    if (positionals.length > 0)
      throw new UsageError('Give the statement either as an argument or with --file, not both.');
    if (file !== '-') return readFile(file, 'utf8');
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  if (positionals.length !== 1)
    throw new UsageError('Give one statement in quotes: dynotable sql "SELECT ..." (or --file FILE).');
  return positionals[0]!;
}

function print(result: ResultTable, format: string): string {
  const rows = Array.from({ length: result.length }, (_, i) => result.row(i));
  if (format === 'json')
    return rows.length === 0
      ? '[]\n'
      : `[\n${rows.map((row) => `  ${jsonRow(result.columns, row)}`).join(',\n')}\n]\n`;
  if (format === 'csv') return csvRecords([result.columns, ...rows.map((row) => row.map(csvValue))]);
  const cells = rows.map((row) => row.map((v) => textValue(v).replace(/\s+/g, ' ')));
  const widths = result.columns.map((c, j) =>
    Math.min(60, Math.max(c.length, ...cells.slice(0, 1000).map((r) => r[j]!.length))),
  );
  const line = (values: string[]) =>
    values
      .map((v, j) => (v.length > widths[j]! ? `${v.slice(0, widths[j]! - 1)}…` : v.padEnd(widths[j]!)))
      .join('  ')
      .trimEnd();
  return `${[line(result.columns), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n')}\n(${rows.length} row${rows.length === 1 ? '' : 's'})\n`;
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    {
      profile: { type: 'string' },
      region: { type: 'string' },
      endpoint: { type: 'string' },
      format: { type: 'string', default: 'json' },
      file: { type: 'string' },
      plan: { type: 'boolean', default: false },
      local: { type: 'boolean', default: false },
      'max-items': { type: 'string' },
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    { allowPositionals: true },
  );
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (!['json', 'csv', 'table'].includes(values.format))
    throw new UsageError(`--format wants json, csv or table, not "${values.format}".`);
  const maxItems = values['max-items'] === undefined ? undefined : Number(values['max-items']);
  if (maxItems !== undefined && (!Number.isInteger(maxItems) || maxItems < 1))
    throw new UsageError(`--max-items wants a whole number above 0, not "${values['max-items']}".`);
  const sql = await statementOf(positionals, values.file);

  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  const client = adHocClient({
    profile: values.profile,
    region: values.region,
    endpoint: values.endpoint,
    mfa: terminalMfaPrompt(processTerminal(), controller.signal),
  });
  const session = new SqlSession();
  const connection = { id: 'cli', client: () => Promise.resolve(client) };
  const progress = progressPrinter(values.quiet);
  try {
    if (values.plan) {
      const plan = await session.plan(connection, sql, [], controller.signal, maxItems);
      process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
      return 0;
    }
    const summary = await session.run(connection, sql, [], {
      signal: controller.signal,
      maxItems,
      ...(values.local ? { scanLimit: 'local' as const } : {}),
      onProgress: (p) =>
        progress(
          `${p.message ?? ''} · ${p.items.toLocaleString('en-US')} items${p.fraction !== undefined ? ` · ${Math.round(p.fraction * 100)}%` : ''}`,
        ),
    });
    progress('');
    process.stdout.write(print(session.results.get(summary.resultId), values.format));
    if (!values.quiet) for (const warning of summary.warnings) process.stderr.write(`warning: ${warning}\n`);
    return 0;
  } catch (error) {
    progress('');
    process.stderr.write(failureLine('sql', error));
    return 2;
  } finally {
    process.off('SIGINT', onSignal);
    client.destroy();
  }
}
