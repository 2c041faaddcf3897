import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { Progress } from '../../shared/ipc/operations';
import type { SqlCatalogOutput, SqlResultSummary, SqlWindow } from '../../shared/ipc/sql';
import type { EntityView, ExportTable } from '../../shared/sql/catalog';
import type { SqlPlan } from '../../shared/sql/plan';
import type { ClientFactory } from '../core/context';
import type { ExportLocation } from '../exports/opened-exports';
import { exportTableOf } from './catalog/export-tables';
import { toAppError } from '../core/to-app-error';
import type { CacheSummary } from './fetch/cache';
import type { ReadBudgetLimits } from './fetch/read-budget';
import type { ExternalRows } from './results/external-result';
import type { ScanLimits } from './scan-limit';
import type { ConnectionDescription, FromWorker, SqlCall, SqlExportRef, ToWorker } from './worker/protocol';

export const SQL_WORKER_CRASHED = 'SqlWorkerCrashed';

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  onProgress?: (progress: Progress) => void;
}

export interface SqlServiceOptions {
  clients: Pick<ClientFactory, 'dynamo'>;
  /** Opened exports, which statements may read as `FROM export."…"`, and where their files are. */
  exports?: () => { opened: ExportTable; location: ExportLocation }[];
  /** Worker entry to run instead of the default (tests). */
  workerFile?: string;
  /** Main's log, for what the worker reports that the user need not see (default: console.warn). */
  log?: (line: string) => void;
}

/**
 * Builds (electron-vite main, the CLI bundle) emit sql-worker.js next to the bundle. From TS
 * sources (vitest, tsx) the worker starts through tsx's CommonJS hook in an eval'd bootstrap:
 * on Node 20 a Worker given a .ts file refuses the extension before `--import tsx` applies.
 */
function workerSpec(file?: string): { code: string; eval: boolean } {
  const built = file ?? path.join(__dirname, 'sql-worker.js');
  if (built.endsWith('.js') && existsSync(built)) return { code: built, eval: false };
  const source = file ?? path.join(__dirname, 'worker', 'sql-worker.ts');
  if (!existsSync(source))
    throw new AppFailure(
      ErrorCodes.internal,
      `DynoTable is missing its SQL worker (${built}). Reinstall DynoTable.`,
    );
  const tsx = createRequire(source).resolve('tsx/cjs');
  return { code: `require(${JSON.stringify(tsx)}); require(${JSON.stringify(source)});`, eval: true };
}

function endpointText(
  endpoint: { protocol?: string; hostname?: string; port?: number; path?: string } | undefined,
): string | undefined {
  if (!endpoint?.hostname) return undefined;
  const protocol = endpoint.protocol?.endsWith(':') ? endpoint.protocol : `${endpoint.protocol ?? 'https'}:`;
  return `${protocol}//${endpoint.hostname}${endpoint.port ? `:${endpoint.port}` : ''}${endpoint.path && endpoint.path !== '/' ? endpoint.path : ''}`;
}

/**
 * Main's handle on the SQL worker thread. Every call is a message; the worker fetches, holds
 * the fetched tables and runs statements, and main only relays small answers and progress.
 * Credentials stay with main's client factory: the worker asks for them when it needs them.
 */
export class SqlService {
  private worker?: Worker;
  private nextId = 1;
  private closed = false;
  private readonly pending = new Map<number, Pending>();
  private readonly clientVersions = new WeakMap<DynamoDBClient, number>();
  private nextVersion = 1;

  constructor(private readonly options: SqlServiceOptions) {}

  private start(): Worker {
    const spec = workerSpec(this.options.workerFile);
    const worker = new Worker(spec.code, { eval: spec.eval });
    worker.unref();
    let lastError = '';
    worker.on('message', (message: FromWorker) => this.receive(worker, message));
    worker.on('error', (error) => (lastError = error.message));
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (this.closed) return;
      const why = lastError ? `: ${lastError}` : ` (exit code ${code})`;
      this.failAll(
        new AppFailure(
          SQL_WORKER_CRASHED,
          `The SQL worker stopped unexpectedly${why}. Cached data and results are lost; run the query again.`,
          true,
        ),
      );
    });
    return worker;
  }

  private receive(worker: Worker, message: FromWorker): void {
    if (message.kind === 'log') {
      (this.options.log ?? console.warn)(message.message);
      return;
    }
    if (message.kind === 'needCredentials') {
      void this.credentials(message.connectionId).then(
        (credentials) =>
          worker.postMessage({
            kind: 'credentials',
            id: message.id,
            ok: true,
            credentials,
          } satisfies ToWorker),
        (error: unknown) =>
          worker.postMessage({
            kind: 'credentials',
            id: message.id,
            ok: false,
            error: toAppError(error),
          } satisfies ToWorker),
      );
      return;
    }
    const waiter = this.pending.get(message.id);
    if (!waiter) return;
    if (message.kind === 'progress') {
      waiter.onProgress?.(message.progress);
      return;
    }
    this.pending.delete(message.id);
    if (this.pending.size === 0) worker.unref();
    if (message.ok) waiter.resolve(message.value);
    else
      waiter.reject(
        new AppFailure(
          message.error.code,
          message.error.message,
          message.error.retryable,
          message.error.details,
        ),
      );
  }

  private async credentials(connectionId: string) {
    const client = await this.options.clients.dynamo(connectionId);
    const identity = await client.config.credentials();
    return {
      accessKeyId: identity.accessKeyId,
      secretAccessKey: identity.secretAccessKey,
      sessionToken: identity.sessionToken,
      expiration: identity.expiration?.getTime(),
    };
  }

  private async describe(connectionId: string): Promise<ConnectionDescription> {
    const client = await this.options.clients.dynamo(connectionId);
    let version = this.clientVersions.get(client);
    if (version === undefined) {
      version = this.nextVersion++;
      this.clientVersions.set(client, version);
    }
    const region = await client.config.region();
    const endpoint = client.config.endpoint ? endpointText(await client.config.endpoint()) : undefined;
    return { id: connectionId, region, endpoint, version };
  }

  /** The opened exports as the worker reads them; one whose connection is gone is left out. */
  private async exportRefs(): Promise<SqlExportRef[]> {
    const refs = await Promise.all(
      (this.options.exports?.() ?? []).map(
        async ({ opened, location }): Promise<SqlExportRef | undefined> => {
          const table = exportTableOf(opened);
          if (location.kind === 'folder') return { ...table, location };
          const connection = await this.describe(location.connectionId).catch(() => undefined);
          if (!connection) return undefined;
          const { bucket, prefix } = location;
          return { ...table, location: { kind: 's3', connection, bucket, prefix } };
        },
      ),
    );
    return refs.filter((ref): ref is SqlExportRef => ref !== undefined);
  }

  private failAll(error: AppFailure): void {
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
  }

  private call<T>(
    call: SqlCall,
    options: { signal?: AbortSignal; onProgress?: (p: Progress) => void } = {},
  ): Promise<T> {
    if (this.closed) return Promise.reject(new AppFailure(ErrorCodes.internal, 'The SQL service is closed.'));
    this.worker ??= this.start();
    const worker = this.worker;
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, {
        resolve: resolve as (value: unknown) => void,
        reject,
        onProgress: options.onProgress,
      });
      // Keep the process alive only while an answer is awaited, so the CLI can exit when idle.
      worker.ref();
      worker.postMessage({ kind: 'call', id, call } satisfies ToWorker);
      const cancel = (): void => worker.postMessage({ kind: 'cancel', id } satisfies ToWorker);
      if (options.signal?.aborted) cancel();
      else options.signal?.addEventListener('abort', cancel, { once: true });
    });
  }

  /** With `scanLimit`, a plan past it is refused (ScanLimitExceeded) as `run` would refuse it. */
  async plan(
    connectionId: string,
    sql: string,
    views: EntityView[],
    maxItems?: number,
    scanLimit?: ScanLimits,
  ): Promise<SqlPlan> {
    const connection = await this.describe(connectionId);
    const exports = await this.exportRefs();
    return this.call({ op: 'plan', connection, sql, views, exports, maxItems, scanLimit });
  }

  async run(
    connectionId: string,
    sql: string,
    views: EntityView[],
    options: {
      refresh?: boolean;
      maxItems?: number;
      budget?: ReadBudgetLimits;
      /** See RunOptions.scanLimit: absent, the machine's default; 'local', chosen past it. */
      scanLimit?: ScanLimits | 'local';
      signal?: AbortSignal;
      onProgress?: (p: Progress) => void;
    },
  ): Promise<SqlResultSummary> {
    const connection = await this.describe(connectionId);
    const { refresh, maxItems, budget, scanLimit } = options;
    const exports = await this.exportRefs();
    return this.call(
      { op: 'run', connection, sql, views, exports, refresh, maxItems, budget, scanLimit },
      options,
    );
  }

  async catalog(connectionId: string, views: EntityView[], refresh?: boolean): Promise<SqlCatalogOutput> {
    const connection = await this.describe(connectionId);
    return this.call({ op: 'catalog', connection, views, exports: await this.exportRefs(), refresh });
  }

  window(resultId: string, offset: number, limit: number): Promise<SqlWindow> {
    return this.call({ op: 'window', resultId, offset, limit });
  }

  /** Rows another engine computed (Athena), kept as a result like a local one. */
  addRows(rows: ExternalRows): Promise<SqlResultSummary> {
    return this.call({ op: 'addRows', rows });
  }

  drop(resultId: string): Promise<boolean> {
    return this.call({ op: 'drop', resultId });
  }

  cacheList(connectionId: string): Promise<CacheSummary[]> {
    return this.call({ op: 'cacheList', connectionId });
  }

  /** Drops cached fetches of a connection, or of one of its tables (after DynoTable wrote to it). */
  cacheClear(connectionId: string, table?: string): Promise<number> {
    return this.call({ op: 'cacheClear', connectionId, ...(table === undefined ? {} : { table }) });
  }

  /**
   * A table DynoTable created, deleted or re-created: the catalog lists table names again and
   * forgets what it fetched or sampled of it, so SQL and autocomplete see the change at once.
   */
  tableChanged(connectionId: string, table: string): Promise<number> {
    return this.call({ op: 'tableChanged', connectionId, table });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new AppFailure(ErrorCodes.internal, 'The SQL service was closed.'));
    if (worker) await worker.terminate();
  }
}
