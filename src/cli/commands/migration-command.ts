import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ReadLimit } from '../../shared/ipc/migration';
import type { Connection } from '../../shared/ipc/connection';
import { AdHocConnections } from '../../main/aws/ad-hoc-client';
import type { CoreContext } from '../../main/core/context';
import { withCliCore } from '../cli-core';
import { processTerminal, terminalMfaPrompt } from '../terminal-mfa';
import { abortOnSignal, failureLine, progressPrinter } from './command-io';
import { connectionOf } from './command-core';
import { readLimitOf, segmentsOf } from './migration-flags';

/** What a migration command's work gets from the shared flags. */
export interface MigrationRun {
  /** The command's core: the app's services, write door and data folder. */
  ctx: CoreContext;
  /** The connection the flags name (saved, or in this core's memory only). */
  connection: Connection;
  client: DynamoDBClient;
  segments: number | undefined;
  limit: ReadLimit | undefined;
  signal: AbortSignal;
  print: (line: string) => void;
}

interface SharedValues extends Record<string, unknown> {
  segments?: string;
  connection?: string;
  profile?: string;
  region?: string;
  endpoint?: string;
  quiet: boolean;
}

/**
 * Runs scan-migration's, fix-migration's, schema's or health's work on a CLI core, with the
 * connection, read limits and Ctrl+C handling their shared flags ask for, and always shuts the
 * core down. A failure is one line on stderr and exit code 2; flag mistakes are UsageErrors
 * before anything starts.
 */
export async function runMigrationCommand(
  command: string,
  values: SharedValues,
  work: (run: MigrationRun) => Promise<number>,
): Promise<number> {
  const segments = segmentsOf(values.segments);
  const limit = readLimitOf(values);
  const cancel = abortOnSignal();
  const adHoc = new AdHocConnections(terminalMfaPrompt(processTerminal(), cancel.signal));
  const print = progressPrinter(values.quiet);
  try {
    return await withCliCore(adHoc, async (ctx) => {
      const connection = await connectionOf(ctx, adHoc, values);
      try {
        const client = await ctx.clients.dynamo(connection.id);
        return await work({ ctx, connection, client, segments, limit, signal: cancel.signal, print });
      } catch (error) {
        print('');
        process.stderr.write(failureLine(command, error));
        return 2;
      }
    });
  } finally {
    cancel.dispose();
  }
}
