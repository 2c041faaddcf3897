import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AppFailure } from '../../../shared/errors';
import { s3ClientOf } from '../../aws/s3-client';
import { readExportTable } from '../../exports/export-table';
import { type ExportFiles, folderFiles, s3Files } from '../../exports/export-source';
import { dynamoClient } from '../../aws/dynamo-client';
import { sdkTransport } from '../../aws/sdk-options';
import { toAppError } from '../../core/to-app-error';
import { forgetTable } from '../../dynamo/table-metadata';
import { addExternalResult } from '../results/external-result';
import { type SessionConnection, type SessionExport, SqlSession } from '../session';
import type { WarmUp } from './warm-up';
import type {
  ConnectionDescription,
  FromWorker,
  SqlCall,
  SqlExportRef,
  ToWorker,
  WireCredentials,
} from './protocol';

/** Credentials are asked for again this long before they expire. */
const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * The SQL worker's side: one SqlSession (fetched tables, cache, results) answering calls from
 * main. Kept apart from the thread entry so tests can drive it directly.
 */
export class SqlWorkerHost {
  readonly session = new SqlSession();
  private readonly clients = new Map<string, { version: number; client: DynamoDBClient }>();
  private readonly running = new Map<number, AbortController>();
  private readonly waiting = new Map<
    number,
    { resolve: (c: WireCredentials) => void; reject: (e: unknown) => void }
  >();
  private nextCredentialRequest = 1;

  constructor(
    private readonly post: (message: FromWorker) => void,
    /** Running while the worker has had no statement (warm-up.ts); the first one ends it. */
    private readonly warmUp?: WarmUp,
  ) {}

  handle(message: ToWorker): void {
    if (message.kind === 'call' && (message.call.op === 'run' || message.call.op === 'plan'))
      this.warmUp?.stop();
    if (message.kind === 'cancel') {
      this.running.get(message.id)?.abort();
      return;
    }
    if (message.kind === 'credentials') {
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.ok) waiter?.resolve(message.credentials);
      else
        waiter?.reject(
          new AppFailure(
            message.error.code,
            message.error.message,
            message.error.retryable,
            message.error.details,
          ),
        );
      return;
    }
    const controller = new AbortController();
    this.running.set(message.id, controller);
    void this.call(message.id, message.call, controller.signal)
      .then(
        (value) => this.post({ kind: 'result', id: message.id, ok: true, value }),
        (error: unknown) => {
          const appError = controller.signal.aborted
            ? { code: 'Cancelled', message: 'The query was cancelled.', retryable: false }
            : toAppError(error);
          this.post({ kind: 'result', id: message.id, ok: false, error: appError });
        },
      )
      .finally(() => this.running.delete(message.id));
  }

  private connection(description: ConnectionDescription, exports: SqlExportRef[] = []): SessionConnection {
    return {
      id: description.id,
      client: () => Promise.resolve(this.client(description)),
      exports: exports.map((ref) => this.sessionExport(ref)),
    };
  }

  /** An opened export, read from its files when a statement names it (S3 as its connection). */
  private sessionExport(ref: SqlExportRef): SessionExport {
    const { location, ...table } = ref;
    return {
      ...table,
      read: async (signal, onItems) => {
        let files: ExportFiles;
        let close = (): void => undefined;
        if (location.kind === 'folder') files = folderFiles(location.path);
        else {
          const { connection } = location;
          const s3 = s3ClientOf({
            ...sdkTransport(),
            region: connection.region,
            ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
            credentials: this.credentials(connection.id),
          });
          close = () => s3.destroy();
          files = s3Files(s3, location.bucket, location.prefix, signal);
        }
        try {
          return await readExportTable(files, `export.${ref.name}`, {
            exportId: ref.exportArn.split('/').at(-1),
            keyAttributes: ref.keyAttributes,
            signal,
            onItems,
          });
        } finally {
          close();
        }
      },
    };
  }

  /** Credentials asked of main, kept until shortly before they expire. */
  private credentials(connectionId: string) {
    let memo: WireCredentials | undefined;
    return async (): Promise<{
      accessKeyId: string;
      secretAccessKey: string;
      sessionToken?: string;
      expiration?: Date;
    }> => {
      if (!memo || (memo.expiration !== undefined && memo.expiration - Date.now() < REFRESH_MARGIN_MS))
        memo = await this.askCredentials(connectionId);
      return { ...memo, expiration: memo.expiration === undefined ? undefined : new Date(memo.expiration) };
    };
  }

  private client(description: ConnectionDescription): DynamoDBClient {
    const existing = this.clients.get(description.id);
    if (existing && existing.version === description.version) return existing.client;
    existing?.client.destroy();
    const client = dynamoClient({
      region: description.region,
      ...(description.endpoint ? { endpoint: description.endpoint } : {}),
      credentials: this.credentials(description.id),
    });
    this.clients.set(description.id, { version: description.version, client });
    return client;
  }

  private askCredentials(connectionId: string): Promise<WireCredentials> {
    const id = this.nextCredentialRequest++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.post({ kind: 'needCredentials', id, connectionId });
    });
  }

  private async call(id: number, call: SqlCall, signal: AbortSignal): Promise<unknown> {
    const session = this.session;
    switch (call.op) {
      case 'plan':
        return session.plan(
          this.connection(call.connection, call.exports),
          call.sql,
          call.views,
          signal,
          call.maxItems,
          call.scanLimit,
        );
      case 'run':
        return session.run(this.connection(call.connection, call.exports), call.sql, call.views, {
          signal,
          refresh: call.refresh,
          maxItems: call.maxItems,
          budget: call.budget,
          scanLimit: call.scanLimit,
          onProgress: (progress) => this.post({ kind: 'progress', id, progress }),
        });
      case 'catalog':
        return session.catalog(
          this.connection(call.connection, call.exports),
          call.views,
          signal,
          call.refresh,
        );
      case 'window':
        return session.results.window(call.resultId, call.offset, call.limit);
      case 'drop':
        return session.results.drop(call.resultId);
      case 'addRows':
        return addExternalResult(session.results, call.rows);
      case 'cacheList':
        return session.cache.list(call.connectionId);
      case 'cacheClear':
        return session.cache.clear(call.connectionId, call.table);
      case 'tableChanged': {
        // The worker's clients keep descriptions of their own (table-metadata is per process).
        const held = this.clients.get(call.connectionId);
        if (held) forgetTable(held.client, call.table);
        return session.tableChanged(call.connectionId, call.table);
      }
    }
  }
}
