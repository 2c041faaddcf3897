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
  'scan-migration': {
    summary:
      'Pre-flight a table before leaving dynamoose: dotted attribute names and Date storage (exit 0/1/2).',
    load: () => import('./scan-migration'),
  },
  schema: {
    summary:
      'What every attribute path of a table holds, per entity (types, formats, ranges, distinct values), or a TS/Zod/JSON Schema model.',
    load: () => import('./schema'),
  },
  health: {
    summary:
      "A table's health: hot keys, items near 400 KB, TTL values that never expire, unread indexes, cost; --fail-on for CI (exit 0/1/2).",
    load: () => import('./health'),
  },
  sql: {
    summary: 'Run a SQL SELECT (joins, GROUP BY, aggregates) over DynamoDB tables; --format json|csv|table.',
    load: () => import('./sql'),
  },
  copy: {
    summary:
      'Copy a table to another table, account, region or DynamoDB Local, losslessly, then verify (exit 0/1/2).',
    load: () => import('./copy'),
  },
  export: {
    summary:
      "List, start (and follow) DynamoDB S3 exports of a table, or print an export's items (exit 0/1/2).",
    load: () => import('./export'),
  },
  mcp: {
    summary: 'An MCP server on stdio: bounded DynamoDB reads, SQL and confirmed writes for coding agents.',
    load: () => import('./mcp'),
  },
  'fix-migration': {
    summary:
      'Move dotted attributes into their nested paths (and convert ISO dates), conditionally; --dry-run first.',
    load: () => import('./fix-migration'),
  },
};

export type { CliCommand, CommandEntry } from './types';
export { UsageError } from './types';
