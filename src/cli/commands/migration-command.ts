import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ReadLimit } from '../../shared/ipc/migration';
import type { Connection } from '../../shared/ipc/connection';
import { AdHocConnections } from '../../main/aws/ad-hoc-client';
import type { CoreContext } from '../../main/core/context';
import { withCliCore } from '../cli-core';
import { processTerminal, terminalMfaPrompt } from '../terminal-mfa';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { Progress } from '../../shared/ipc/operations';
import { abortOnSignal, failureLine, progressPrinter } from './command-io';
import { connectionOf, runOperation } from './command-core';
import { readLimitOf, segmentsOf } from './migration-flags';
import { UsageError } from './types';

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
        if (error instanceof UsageError) throw error;
        process.stderr.write(failureLine(command, error));
        return 2;
      }
    });
  } finally {
    cancel.dispose();
  }
}

/** What the pre-flight's and the Schema view's scan services both take. */
export interface ResumableStart {
  requestId: string;
  connectionId: string;
  table: string;
  segments?: number;
  limit?: ReadLimit;
  resumeScanId?: string;
}

/** A progress line: the share read, if known, and the service's message. */
export function progressLine(p: Progress): string {
  return `${p.fraction !== undefined ? `${Math.round(p.fraction * 100)}% · ` : ''}${p.message ?? ''}`;
}

/**
 * Runs one of the app's resumable jobs (a pre-flight scan, a schema read) through its service, as
 * the app's window does: a job in the one job store under the data folder, listed by the app.
 * `start` gets the requestId and answers the job's id. Ctrl+C cancels it like the app's Cancel,
 * keeps its checkpoint and prints how to resume it (undefined then: exit 2). A `--resume` id the
 * service does not know (or that finished) is a usage error, said in the service's sentence.
 */
export async function runResumableJob(
  command: string,
  run: MigrationRun,
  options: {
    table: string;
    /** The id `--resume` named, if any. */
    resume: string | undefined;
    /** Starts the job from the input every scan service takes; answers the job's id. */
    start: (base: ResumableStart) => Promise<string>;
  },
): Promise<string | undefined> {
  let id: string | undefined;
  const start = async (requestId: string): Promise<void> => {
    try {
      id = await options.start({
        requestId,
        connectionId: run.connection.id,
        table: options.table,
        ...(run.segments !== undefined ? { segments: run.segments } : {}),
        ...(run.limit ? { limit: run.limit } : {}),
        ...(options.resume !== undefined ? { resumeScanId: options.resume } : {}),
      });
    } catch (error) {
      const refused =
        error instanceof AppFailure &&
        (error.code === ErrorCodes.notFound || error.code === ErrorCodes.invalidInput);
      if (options.resume !== undefined && refused) throw new UsageError(error.message);
      throw error;
    }
  };
  const end = await runOperation(run.ctx, start, {
    signal: run.signal,
    onProgress: (p) => run.print(progressLine(p)),
  });
  run.print('');
  if (end.type === 'done' && id !== undefined) return id;
  const items = end.type === 'cancelled' ? end.progress.items : 0;
  process.stderr.write(
    `dynotable ${command}: stopped at ${items.toLocaleString('en-US')} items; run \`dynotable ${command} --resume ${id ?? ''}\` with the same flags to go on (Cancelled)\n`,
  );
  return undefined;
}
