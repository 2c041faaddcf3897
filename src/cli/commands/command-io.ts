import { writeFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { toAppError } from '../../main/core/to-app-error';
import { UsageError } from './types';

/** Strict flag parsing for every command: an unknown or malformed flag is a UsageError (exit 2). */
export function parseFlags<O extends ParseArgsConfig['options']>(
  argv: string[],
  options: O,
  { allowPositionals = false } = {},
) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export async function emit(text: string, out: string | undefined): Promise<void> {
  if (out) await writeFile(out, text, 'utf8');
  else process.stdout.write(text);
}

/** A progress line on stderr that rewrites itself on a terminal, and stays quiet in logs. */
export function progressPrinter(quiet: boolean): (line: string) => void {
  if (quiet || !process.stderr.isTTY) return () => undefined;
  return (line) => process.stderr.write(`\r\u001b[2K${line}`);
}

/** One line for the terminal: the sentence and the AWS error name, exit code 2. */
export function failureLine(command: string, error: unknown): string {
  const app = toAppError(error);
  return `dynotable ${command}: ${app.message.split('\n')[0]} (${app.code})\n`;
}

/** Ctrl+C cancels the work instead of killing the process mid-write. */
export function abortOnSignal(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
