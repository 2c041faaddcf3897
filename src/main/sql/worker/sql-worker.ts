import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../../core/background-priority';
import type { FromWorker, ToWorker } from './protocol';
import { startWarmUp } from './warm-up';
import { SqlWorkerHost } from './worker-host';

/**
 * The SQL worker thread: it fetches from DynamoDB, holds the fetched tables and runs
 * statements, so neither the UI nor main's event loop ever parses a page or joins a million
 * rows. Builds emit it as sql-worker.js next to the main bundle; from TS sources the service
 * starts this file through tsx.
 */
if (!parentPort) throw new Error('sql-worker.ts must run as a worker thread.');
const port = parentPort;
lowerThisThreadPriority();
// The worker starts when the workbench loads its catalog: the engine's paths warm while the
// user writes the first statement, which ends the warm-up wherever it is (warm-up.ts).
const post = (message: FromWorker): void => port.postMessage(message);
const host = new SqlWorkerHost(post, startWarmUp({ onError: (message) => post({ kind: 'log', message }) }));
port.on('message', (message: ToWorker) => host.handle(message));
