import { spawn } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';

const root = path.resolve(__dirname, '../..');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The command that runs the real CLI with these arguments: the bundle the integration run built
 * once (global-setup.ts), as it ships; else src/cli/index.ts through tsx (the e2e layer); with
 * `naturalExit`, main() from the sources without the forced exit (tests/support/cli-main-child.ts).
 */
export function cliCommand(
  args: string[],
  { naturalExit = false } = {},
): { command: string; args: string[] } {
  const bundle = naturalExit ? undefined : (inject('cliBundle') as string | undefined);
  if (bundle) return { command: process.execPath, args: [bundle, ...args] };
  const entry = naturalExit
    ? path.join(root, 'tests/support/cli-main-child.ts')
    : path.join(root, 'src/cli/index.ts');
  return {
    command: process.execPath,
    args: [path.join(root, 'node_modules/tsx/dist/cli.mjs'), entry, ...args],
  };
}

/**
 * The real CLI (cliCommand) in a child process, with credentials the
 * way a CI job passes them and no AWS_PROFILE. An override of undefined removes the variable
 * from the child's environment.
 */
export function runCli(
  args: string[],
  overrides: NodeJS.ProcessEnv = {},
  options: { naturalExit?: boolean } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const merged: NodeJS.ProcessEnv = {
      ...process.env,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_PROFILE: undefined,
      ...overrides,
    };
    const env = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
    const cli = cliCommand(args, options);
    const child = spawn(cli.command, cli.args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** DynoTable's own lines of stderr (a Node warning of the test runner's may precede them). */
export const ourLines = (stderr: string): string[] =>
  stderr.split('\n').filter((l) => l.startsWith('dynotable '));
