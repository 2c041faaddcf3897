/**
 * One CLI subcommand. `run` receives the arguments after the command name and resolves to the
 * process exit code (0 ok, 1 the work failed, 2 the command line was wrong).
 */
export interface CliCommand {
  run(argv: string[]): Promise<number>;
}

export interface CommandEntry {
  /** One line for `dynotable --help`. */
  summary: string;
  /** Loaded only when the command runs, so `--help` stays fast and never loads the AWS SDK. */
  load: () => Promise<CliCommand>;
}

/** A mistake on the command line: printed as one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
