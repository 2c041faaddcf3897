import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { cliCommand } from './cli-run';

/**
 * `dynotable mcp <args>` as a coding agent starts it: the real CLI in a child process on the
 * given data folder, with DynamoDB Local's keys and nothing else from this process's
 * environment, for the official SDK client to drive.
 */
export function mcpStdioTransport(
  args: string[],
  dataDir: string,
  env: Record<string, string> = {},
): StdioClientTransport {
  return new StdioClientTransport({
    ...cliCommand(['mcp', ...args]),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      DYNOTABLE_DATA_DIR: dataDir,
      ...env,
    },
    stderr: 'pipe',
  });
}
