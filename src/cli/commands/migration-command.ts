import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ReadLimit } from '../../shared/ipc/migration';
import { adHocClient } from '../../main/aws/ad-hoc-client';
import { processTerminal, terminalMfaPrompt } from '../terminal-mfa';
import { abortOnSignal, failureLine, progressPrinter } from './command-io';
import { readLimitOf, segmentsOf } from './migration-flags';

/** What a migration command's work gets from the shared flags. */
export interface MigrationRun {
  client: DynamoDBClient;
  segments: number | undefined;
  limit: ReadLimit | undefined;
  signal: AbortSignal;
  print: (line: string) => void;
}

interface SharedValues extends Record<string, unknown> {
  segments?: string;
  profile?: string;
  region?: string;
  endpoint?: string;
  quiet: boolean;
}

/**
 * Runs scan-migration's or fix-migration's work with the client, read limits and Ctrl+C
 * handling their shared flags ask for, and always releases them. A failure is one line on
 * stderr and exit code 2; flag mistakes are UsageErrors before anything starts.
 */
export async function runMigrationCommand(
  command: string,
  values: SharedValues,
  work: (run: MigrationRun) => Promise<number>,
): Promise<number> {
  const segments = segmentsOf(values.segments);
  const limit = readLimitOf(values);
  const cancel = abortOnSignal();
  const client = adHocClient({
    profile: values.profile,
    region: values.region,
    endpoint: values.endpoint,
    mfa: terminalMfaPrompt(processTerminal(), cancel.signal),
  });
  const print = progressPrinter(values.quiet);
  try {
    return await work({ client, segments, limit, signal: cancel.signal, print });
  } catch (error) {
    print('');
    process.stderr.write(failureLine(command, error));
    return 2;
  } finally {
    cancel.dispose();
    client.destroy();
  }
}
