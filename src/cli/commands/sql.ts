import { readFile } from 'node:fs/promises';
import { AdHocConnections } from '../../main/aws/ad-hoc-client';
import { scanLimitOf } from '../../main/sql/sql-settings';
import { loadViews } from '../../main/sql/files/view-store';
import { appendHistory } from '../../main/sql/files/query-files';
import { type ScriptStatement, splitStatements } from '../../main/sql/parser/statements';
import { sqlServiceFor } from '../../main/sql/service-registry';
import { withCliCore } from '../cli-core';
import { SQL_DEFAULT_MAX_ITEMS } from '../../shared/ipc/sql';
import { processTerminal, terminalMfaPrompt } from '../terminal-mfa';
import { failureLine, parseFlags, progressPrinter } from './command-io';
import { connectionOf } from './command-core';
import { printResult, resultOf, type SqlFormat } from './sql-output';
import { runScript, type StatementOutcome } from './sql-script';
import { UsageError } from './types';

const HELP = `Usage: dynotable sql "<statement>" [options]
       dynotable sql --file FILE [options]

Runs one SQL SELECT over DynamoDB with the same planner and engine as the app: partition-key
equalities become Queries, other conditions filters; joins, GROUP BY and aggregates run here.
Numbers keep all their digits. Exit code: 0 ok, 2 bad SQL or a connection error (one line).

With --file, FILE holds statements separated by ";" (one in a string, a quoted name or a
comment separates nothing). They run in order in this one process, sharing what was fetched,
and each prints its own result: one line of JSON each (its rows as an array, or
{"statement", "line", "error"}) with --format json, else after a "-- statement N (line L): ..."
line. A statement that fails is reported and the next one runs; the exit code is 2 if any failed.

  --connection NAME    A connection saved in DynoTable (its name or id), with its views and scan limit.
  --profile P          AWS profile (SSO, assume-role, credential_process; an MFA code is asked on the terminal); default: the default chain.
  --region R           Region; default: $AWS_REGION or the profile's.
  --endpoint URL       Endpoint override (DynamoDB Local, LocalStack).
  --format F           json (an array of row objects, the default), csv or table.
  --file FILE          Read the statements from FILE ("-" for stdin) instead of the argument.
  --plan               Print the DynamoDB calls each statement would make (JSON) instead of running it.
  --max-items N        Stop each DynamoDB read after N items (default ${SQL_DEFAULT_MAX_ITEMS.toLocaleString('en-US')}).
  --local              Scan locally even a table whose size is past the scan limit (a quarter of
                       this machine's memory); without it such a statement reads nothing and fails.
  --quiet              No progress or warnings on stderr.

Tables are the connection's DynamoDB tables by name, and entity views of single-table designs
(users, orders, ... detected from key prefixes; "Table.view" when several tables have one).`;

/** The argument as one statement, or a script read from --file (a file, or "-" for stdin). */
async function sourceOf(
  positionals: string[],
  file: string | undefined,
): Promise<{ statement: string } | { script: string }> {
  if (file !== undefined) {
    if (positionals.length > 0)
      throw new UsageError('Give the statement either as an argument or with --file, not both.');
    if (file !== '-') return { script: await readFile(file, 'utf8') };
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return { script: Buffer.concat(chunks).toString('utf8') };
  }
  if (positionals.length !== 1)
    throw new UsageError('Give one statement in quotes: dynotable sql "SELECT ..." (or --file FILE).');
  return { statement: positionals[0]! };
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    {
      connection: { type: 'string' },
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
  const format = values.format as SqlFormat;
  const source = await sourceOf(positionals, values.file);
  let statements: ScriptStatement[] | undefined;
  try {
    statements = 'script' in source ? splitStatements(source.script) : undefined;
  } catch (error) {
    // A script that does not split (a quote never closed) is refused before anything is read.
    process.stderr.write(failureLine('sql', error));
    return 2;
  }
  if (statements?.length === 0)
    throw new UsageError(`${values.file === '-' ? 'The standard input' : values.file} holds no statement.`);

  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  const adHoc = new AdHocConnections(terminalMfaPrompt(processTerminal(), controller.signal));
  try {
    return await withCliCore(adHoc, async (ctx) => {
      const connection = await connectionOf(ctx, adHoc, values);
      // The app's SQL service (its worker, the one read engine), with the connection's views and scan limit.
      const service = sqlServiceFor(ctx);
      const progress = progressPrinter(values.quiet);
      const runStatement = async (sql: string): Promise<StatementOutcome> => {
        try {
          const views = await loadViews(ctx.dataDir, connection.id);
          if (values.plan)
            return { plan: await service.plan(connection.id, sql, views, maxItems), warnings: [] };
          const summary = await service.run(connection.id, sql, views, {
            signal: controller.signal,
            maxItems,
            scanLimit: values.local ? 'local' : await scanLimitOf(ctx.dataDir, connection.id),
            onProgress: (p) =>
              progress(
                `${p.message ?? ''} · ${p.items.toLocaleString('en-US')} items${p.fraction !== undefined ? ` · ${Math.round(p.fraction * 100)}%` : ''}`,
              ),
          });
          // In the connection's SQL history, as the app's runs are, marked as run from the CLI.
          await appendHistory(ctx.dataDir, connection.id, sql, new Date(), 'cli').catch(() => undefined);
          return { result: await resultOf(service, summary.resultId), warnings: summary.warnings };
        } finally {
          progress('');
        }
      };
      try {
        if ('script' in source)
          return await runScript({
            script: source.script,
            statements: statements ?? [],
            format,
            quiet: values.quiet,
            signal: controller.signal,
            runStatement,
          });
        const outcome = await runStatement(source.statement);
        process.stdout.write(
          'plan' in outcome
            ? `${JSON.stringify(outcome.plan, null, 2)}\n`
            : await printResult(outcome.result, format),
        );
        if (!values.quiet)
          for (const warning of outcome.warnings) process.stderr.write(`warning: ${warning}\n`);
        return 0;
      } catch (error) {
        process.stderr.write(failureLine('sql', error));
        return 2;
      }
    });
  } finally {
    process.off('SIGINT', onSignal);
  }
}
