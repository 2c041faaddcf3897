import type { CommandEntry } from './types';

/**
 * Every `dynotable <command>`. To add one, write src/cli/commands/<name>.ts exporting
 * `run(argv): Promise<number>` and add one entry here; the help text is built from this table.
 */
export const commands: Record<string, CommandEntry> = {
  serve: {
    summary: 'Serve the DynoTable UI and API on 127.0.0.1 for a browser (--port N, --playground).',
    load: () => import('./serve'),
  },
};

export type { CliCommand, CommandEntry } from './types';
export { UsageError } from './types';
