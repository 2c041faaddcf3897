import { toAppError } from '../core/to-app-error';
import type { WorkerRequest, WorkerResponse } from './protocol';
import { ResultSetCore } from './result-set-core';

/** Answers one request against a core; shared by the real worker and test fixtures. */
export function createRequestHandler(core = new ResultSetCore()): (request: WorkerRequest) => WorkerResponse {
  return (request) => {
    try {
      return { id: request.id, ok: true, value: run(core, request) };
    } catch (error) {
      return { id: request.id, ok: false, error: toAppError(error) };
    }
  };
}

function run(core: ResultSetCore, request: WorkerRequest): unknown {
  switch (request.op) {
    case 'create':
      return core.create(request.meta);
    case 'append':
      return core.append(request.resultSetId, request.items);
    case 'window':
      return core.window(
        request.resultSetId,
        request.offset,
        request.limit,
        request.viewId,
        request.itemsOnly,
      );
    case 'appendWire':
      return core.appendWire(request.resultSetId, request.body);
    case 'appendExportLines':
      return core.appendExportLines(request.resultSetId, request.body);
    case 'applyExportChanges':
      return core.applyExportChanges(request.resultSetId, request.changes);
    case 'view':
      return core.view(request.resultSetId, request.spec, request.name, request.revision);
    case 'collections':
      return core.collections(request.resultSetId, request.viewId, request.change);
    case 'applyWrites':
      return core.applyWrites(request.batch);
    case 'drop':
      return core.drop(request.resultSetId);
    case 'stats':
      return core.stats();
  }
}
