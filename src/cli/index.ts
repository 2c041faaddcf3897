import { commands } from './commands/index';
import { cliVersion } from './version';

function helpText(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  const lines = Object.entries(commands).map(([name, entry]) => `  ${name.padEnd(width)}  ${entry.summary}`);
  return [
    'Usage: dynotable <command> [options]',
    '',
    'Commands:',
    ...lines,
    '',
    'Run `dynotable <command> --help` for the options of one command.',
  ].join('\n');
}

/**
 * The AWS SDK prints six lines on every start under Node 20 about SDK releases after January 2027
 * needing Node 22. DynoTable pins its SDK (package-lock.json), so those releases are a matter for
 * the project's next upgrade, which README states, not for a script's stderr on every run.
 */
function quietSdkNodeNotice(): void {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

/** Runs one command line and resolves to the exit code; never throws. */
export async function main(argv: string[]): Promise<number> {
  quietSdkNodeNotice();
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${helpText()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${cliVersion}\n`);
    return 0;
  }
  const entry = Object.prototype.hasOwnProperty.call(commands, name) ? commands[name] : undefined;
  if (!entry) {
    process.stderr.write(`dynotable: unknown command "${name}". Run \`dynotable --help\` for the list.\n`);
    return 2;
  }
  try {
    const command = await entry.load();
    return await command.run(rest);
  } catch (error) {
    // One line, no stack: the person at the terminal needs the reason, not our call graph.
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`dynotable ${name}: ${message.split('\n')[0]}\n`);
    return 2;
  }
}

// Run when executed directly (`tsx src/cli/index.ts`); bin/dynotable.cjs requires the bundle and calls main().
if (require.main === module) {
  void main(process.argv.slice(2)).then(exitWhenDone);
}

/**
 * Lets the event loop drain (stdout flushes) but does not wait forever on a handle some module
 * forgot to close: the unref'd timer fires only if something is still keeping the process alive.
 */
export function exitWhenDone(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 5_000).unref();
}
