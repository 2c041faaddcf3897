import { toAppError } from '../../main/core/to-app-error';
import { lineColumn } from '../../main/sql/parser/sql-error';
import { inScript, type ScriptStatement } from '../../main/sql/parser/statements';
import type { SqlPlan } from '../../shared/sql/plan';
import { failureLine } from './command-io';
import { jsonLine, printResult, type PrintedResult, type SqlFormat } from './sql-output';

/** What one statement gave: its rows, or its plan under --plan, and its warnings. */
export type StatementOutcome =
  { result: PrintedResult; warnings: string[] } | { plan: SqlPlan; warnings: string[] };

export interface ScriptRun {
  script: string;
  statements: ScriptStatement[];
  format: SqlFormat;
  quiet: boolean;
  signal: AbortSignal;
  /** Runs one statement in the command's one session, so its fetch cache serves them all. */
  runStatement(sql: string): Promise<StatementOutcome>;
}

const oneLine = (sql: string): string => {
  const flat = sql.replace(/\s+/g, ' ');
  return flat.length > 100 ? `${flat.slice(0, 99)}…` : flat;
};

/**
 * The statements of a script in order, one result each: a line of JSON per statement under
 * --format json (its rows as an array; a failure as {"statement", "line", "error"}), else each
 * result after a `-- statement N (line L): …` line. A statement that fails is reported (stdout
 * and one line on stderr) and the next one runs; the exit code is then 2, as for a single
 * failing statement. Ctrl+C stops the statement that is running and runs no more.
 */
export async function runScript(run: ScriptRun): Promise<number> {
  const { script, format, signal } = run;
  let failed = 0;
  for (const [i, statement] of run.statements.entries()) {
    if (signal.aborted) break;
    const label = `statement ${i + 1} (line ${lineColumn(script, statement.start).line})`;
    if (format !== 'json')
      process.stdout.write(`${i > 0 ? '\n' : ''}-- ${label}: ${oneLine(statement.text)}\n`);
    try {
      const outcome = await run.runStatement(statement.text);
      if ('plan' in outcome)
        process.stdout.write(`${JSON.stringify(outcome.plan, null, format === 'json' ? undefined : 2)}\n`);
      else
        process.stdout.write(
          format === 'json' ? jsonLine(outcome.result) : await printResult(outcome.result, format),
        );
      if (!run.quiet)
        for (const warning of outcome.warnings) process.stderr.write(`warning: ${label}: ${warning}\n`);
    } catch (caught) {
      failed += 1;
      const located = inScript(caught, script, statement);
      const error = toAppError(located);
      const sentence = error.message.split('\n')[0]!;
      process.stderr.write(failureLine(`sql: ${label}`, located));
      process.stdout.write(
        format === 'json'
          ? `${JSON.stringify({ statement: i + 1, line: lineColumn(script, statement.start).line, error: { code: error.code, message: sentence } })}\n`
          : `-- failed: ${sentence} (${error.code})\n`,
      );
    }
  }
  return failed > 0 || signal.aborted ? 2 : 0;
}
