import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../../core/background-priority';
import type { FromWorker, ToWorker } from './protocol';
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
const host = new SqlWorkerHost((message: FromWorker) => port.postMessage(message));
port.on('message', (message: ToWorker) => host.handle(message));
