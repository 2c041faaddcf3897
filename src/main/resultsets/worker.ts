import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../core/background-priority';
import type { WorkerRequest } from './protocol';
import { createRequestHandler } from './worker-handler';

/**
 * The result-set worker thread. Builds emit it as resultset-worker.js next to the main bundle;
 * from TS sources store.ts starts this file through tsx.
 */
if (!parentPort) throw new Error('worker.ts must run as a worker thread.');
const port = parentPort;
// Encoding pages is bulk work: the renderer's frames come first (measured in docs/PERFORMANCE.md).
lowerThisThreadPriority();
const handle = createRequestHandler();
port.on('message', (request: WorkerRequest) => {
  const response = handle(request);
  if (request.op !== 'appendWire') {
    port.postMessage(response);
    return;
  }
  // The page was encoded into the store; its buffer goes back to be filled with the next page.
  const spare = request.body.buffer as ArrayBuffer;
  port.postMessage({ ...response, spare }, [spare]);
});
