import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { addReadOnlyGuard } from '../../main/aws/read-only-guard';
import { shutdownCore } from '../../main/create-core';
import { sessionPatterns } from '../../main/mcp/access-pattern-tools';
import { dryRunReport } from '../../main/mcp/dry-run';
import { createMcpServer } from '../../main/mcp/mcp-server';
import { StdioProposalDesk } from '../../main/mcp/stdio-proposals';
import { McpToolSession } from '../../main/mcp/tool-session';
import { AdHocConnections } from '../../main/aws/ad-hoc-client';
import type { Connection } from '../../shared/ipc/connection';
import { createCliCore } from '../cli-core';
import { terminalMfaPrompt } from '../terminal-mfa';
import { cliVersion } from '../version';
import { failureLine, parseFlags } from './command-io';
import { savedConnection } from './command-core';
import { UsageError } from './types';

const DEFAULT_MAX_ITEMS = 1000;
const DEFAULT_MAX_RCU = 50;

const HELP = `Usage: dynotable mcp [options]

An MCP server on stdio that gives a coding agent (Claude Code, Cursor, VS Code, …) safe DynamoDB
tools: list_tables, describe_table, table_schema, get_item, query, scan, run_sql (SELECT only),
explain, and with
--allow-writes propose_changes, which asks you to confirm each write. Every read is bounded per
tool call; every call is recorded in the audit log of the data folder. See docs/MCP.md.

  --connection NAME    A connection saved in DynoTable (its name or id); its read-only flag holds.
  --profile P          AWS profile (not one that needs an MFA code: stdin carries the protocol).
  --region R           Region; default: $AWS_REGION or the profile's.
  --endpoint URL       Endpoint override (DynamoDB Local, LocalStack).
  --read-only          Refuse every write, whatever else is said.
  --tables T1,T2       Only these tables may be listed, read or changed.
  --max-items N        Items one tool call may read (default ${DEFAULT_MAX_ITEMS}).
  --max-rcu N          Read capacity one tool call may consume (default ${DEFAULT_MAX_RCU}).
  --allow-writes       Offer propose_changes: each write approved by you in the running DynoTable
                       (with --connection) or in the client, if it supports MCP elicitation.
  --dry-run            Print the tools with their annotations, the budgets and the allow-list; serve nothing.
  --allow-scans        Let reads Scan a table (the scan tool, a SELECT without a key condition);
                       refused otherwise, with the key condition or index that would serve instead.

Data folder (audit log, saved connections): $DYNOTABLE_DATA_DIR, or the desktop app's.`;

function positive(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} wants a number above 0, not "${text}".`);
  return n;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseFlags(argv, {
    connection: { type: 'string' },
    profile: { type: 'string' },
    region: { type: 'string' },
    endpoint: { type: 'string' },
    'read-only': { type: 'boolean', default: false },
    tables: { type: 'string' },
    'max-items': { type: 'string' },
    'max-rcu': { type: 'string' },
    'allow-writes': { type: 'boolean', default: false },
    'allow-scans': { type: 'boolean', default: false },
    'dry-run': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (values.connection !== undefined && (values.profile || values.region || values.endpoint))
    throw new UsageError('Give either --connection or --profile/--region/--endpoint, not both.');
  const maxItems = Math.floor(positive('--max-items', values['max-items'], DEFAULT_MAX_ITEMS));
  const maxRcu = positive('--max-rcu', values['max-rcu'], DEFAULT_MAX_RCU);
  const tables = (values.tables ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);

  // stdin is the MCP stream, so no code can be typed there: fail at once with what to do.
  const adHoc = new AdHocConnections(
    terminalMfaPrompt(
      { input: process.stdin, output: process.stderr, isInteractive: false },
      new AbortController().signal,
    ),
  );
  // A connection from --profile/--region/--endpoint lives in this core's memory: nothing is saved.
  const flagged =
    values.connection === undefined
      ? adHoc.add(values, { label: 'dynotable mcp', readOnly: values['read-only'] })
      : undefined;
  const ctx = await createCliCore({ adHoc });
  try {
    let connection: Connection;
    if (flagged) {
      connection = flagged;
    } else {
      const saved = await savedConnection(ctx, values.connection ?? '');
      connection = values['read-only'] ? { ...saved, readOnly: true } : saved;
      if (values['read-only'] && !saved.readOnly) {
        const client = await ctx.clients.dynamo(saved.id);
        addReadOnlyGuard(client);
      }
    }
    const session = new McpToolSession({
      ctx,
      connection,
      tables,
      maxItems,
      maxRcu,
      allowWrites: values['allow-writes'],
      allowScans: values['allow-scans'],
    });
    if (values['dry-run']) {
      process.stdout.write(dryRunReport(session, (await sessionPatterns(session)).patterns));
      return 0;
    }
    // Writes to a saved connection are approved in the running app too (docs/MCP.md); an ad-hoc one is in no app.
    const desk = flagged ? undefined : new StdioProposalDesk(ctx.dataDir, tables);
    const server = createMcpServer(session, cliVersion, desk);
    const closed = new Promise<void>((resolve) => {
      server.onclose = resolve;
      process.stdin.once('end', resolve);
    });
    await server.connect(new StdioServerTransport());
    process.stderr.write(
      `dynotable mcp: serving ${connection.label} (${connection.readOnly ? 'read-only' : values['allow-writes'] ? 'writes confirmed by you' : 'reads only'}) on stdio.\n`,
    );
    await closed;
    return 0;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    process.stderr.write(failureLine('mcp', error));
    return 2;
  } finally {
    await shutdownCore(ctx);
  }
}
