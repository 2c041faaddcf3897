import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type {
  CollectionSizes,
  ResultSetChange,
  ResultSetStore,
  ResultSetWindow,
  ViewSummary,
  WireAppend,
} from './types';
import type { WorkerRequest, WorkerResponse } from './protocol';

export interface ResultSetStoreOptions {
  /** Worker entry to run instead of the default (tests use it to make a worker crash). */
  workerFile?: string;
}

type Pending = { resolve: (value: unknown) => void; reject: (error: unknown) => void };
type Op = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

export const WORKER_CRASHED = 'ResultSetWorkerCrashed';

/** A page buffer's least size: a Scan page holds up to 1 MB of items, a bit more as JSON. */
const SPARE_BYTES = 2 * 1024 * 1024;
const MAX_SPARES = 2;

/**
 * How to start the worker: builds (electron-vite main, the CLI bundle) emit resultset-worker.js
 * next to the bundle. From TS sources (vitest, tsx) we run worker.ts through tsx's CommonJS
 * hook in an eval'd bootstrap, because on Node 20 a Worker given a .ts file with
 * execArgv ['--import', 'tsx'] still refuses the extension before the hooks apply.
 */
function workerSpec(file?: string): { code: string; eval: boolean } {
  const built = file ?? path.join(__dirname, 'resultset-worker.js');
  if (built.endsWith('.js') && existsSync(built)) return { code: built, eval: false };
  const source = file ?? path.join(__dirname, 'worker.ts');
  if (!existsSync(source)) {
    throw new AppFailure(
      ErrorCodes.internal,
      `DynoTable is missing its result-set worker (${built}). Reinstall DynoTable.`,
    );
  }
  const tsx = createRequire(source).resolve('tsx/cjs');
  return { code: `require(${JSON.stringify(tsx)}); require(${JSON.stringify(source)});`, eval: true };
}

/**
 * The result-set store as main sees it: every call is a message to one worker thread, so
 * encoding, holding and slicing a million items never blocks main's event loop. If the worker
 * dies, waiting calls fail with a clear error and the next call starts a fresh worker (whose
 * result sets are empty: ids from before the crash answer NotFound).
 */
export function createResultSetStore(options: ResultSetStoreOptions = {}): ResultSetStore {
  let worker: Worker | undefined;
  let nextId = 1;
  let closed = false;
  const pending = new Map<number, Pending>();
  /**
   * Page buffers the worker handed back. A fresh ArrayBuffer per ~1 MB page is zeroed, faulted in
   * and freed again, and as external memory it made V8 collect garbage more often on both threads;
   * two buffers moving back and forth do the same job.
   */
  const spares: ArrayBuffer[] = [];

  const failAll = (error: AppFailure): void => {
    for (const waiter of pending.values()) waiter.reject(error);
    pending.clear();
  };

  const start = (): Worker => {
    const spec = workerSpec(options.workerFile);
    const started = new Worker(spec.code, { eval: spec.eval });
    started.unref();
    let lastError = '';
    started.on('message', (response: WorkerResponse) => {
      if (response.spare && spares.length < MAX_SPARES) spares.push(response.spare);
      const waiter = pending.get(response.id);
      if (!waiter) return;
      pending.delete(response.id);
      if (pending.size === 0) started.unref();
      if (response.ok) waiter.resolve(response.value);
      else {
        const { code, message, retryable, details } = response.error;
        waiter.reject(new AppFailure(code, message, retryable, details));
      }
    });
    started.on('error', (error) => (lastError = error.message));
    started.on('exit', (code) => {
      if (worker !== started) return;
      worker = undefined;
      if (closed) return;
      const why = lastError ? `: ${lastError}` : ` (exit code ${code})`;
      failAll(
        new AppFailure(
          WORKER_CRASHED,
          `The result-set worker stopped unexpectedly${why}. Results fetched so far are lost; run the query again.`,
          true,
        ),
      );
    });
    return started;
  };

  const call = <T>(op: Op, transfer: ArrayBuffer[] = []): Promise<T> => {
    if (closed) return Promise.reject(new AppFailure(ErrorCodes.internal, 'The result-set store is closed.'));
    worker ??= start();
    const id = nextId++;
    const target = worker;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      // Keep the process alive only while an answer is awaited, so the CLI can exit when idle.
      target.ref();
      target.postMessage({ ...op, id }, transfer);
    });
  };

  return {
    create: (meta) => call<string>({ op: 'create', meta }),
    append: (resultSetId, items) => call<number>({ op: 'append', resultSetId, items }),
    window: (resultSetId, offset, limit, viewId, itemsOnly) =>
      call<ResultSetWindow>({ op: 'window', resultSetId, offset, limit, viewId, itemsOnly }),
    view: (resultSetId, spec, name, revision) =>
      call<ViewSummary>({ op: 'view', resultSetId, spec, name, revision }),
    collections: (resultSetId, viewId, change) =>
      call<CollectionSizes>({ op: 'collections', resultSetId, viewId, change }),
    appendWire: (resultSetId, chunks) => {
      // One copy of the body into a buffer that moves to the worker and comes back.
      const size = chunks.reduce((n, chunk) => n + chunk.byteLength, 0);
      const at = spares.findIndex((spare) => spare.byteLength >= size);
      const buffer =
        at >= 0 ? (spares.splice(at, 1)[0] as ArrayBuffer) : new ArrayBuffer(Math.max(size, SPARE_BYTES));
      const body = new Uint8Array(buffer, 0, size);
      let offset = 0;
      for (const chunk of chunks) {
        body.set(chunk, offset);
        offset += chunk.byteLength;
      }
      return call<WireAppend>({ op: 'appendWire', resultSetId, body }, [buffer]);
    },
    appendExportLines: (resultSetId, body) =>
      call<number>({ op: 'appendExportLines', resultSetId, body }, [body.buffer as ArrayBuffer]),
    applyExportChanges: (resultSetId, changes) =>
      call<number>({ op: 'applyExportChanges', resultSetId, changes }),
    applyWrites: (batch) => call<ResultSetChange[]>({ op: 'applyWrites', batch }),
    drop: (resultSetId) => call<boolean>({ op: 'drop', resultSetId }),
    warm() {
      if (!closed) worker ??= start();
    },
    async close() {
      closed = true;
      const current = worker;
      worker = undefined;
      failAll(new AppFailure(ErrorCodes.internal, 'The result-set store was closed.'));
      if (current) await current.terminate();
    },
  };
}
