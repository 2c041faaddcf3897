import { useCallback, useEffect, useState } from 'react';
import type { AppError } from '../../../../shared/ipc';
import type { TableAdminResult } from '../../../../shared/ipc/table-admin';
import { call, newRequestId } from '../../../ipc/client';
import { doneValueOf, onOperation, useOperation } from '../../operations/store';

export type TableOperationPhase =
  | { phase: 'idle' }
  | { phase: 'running'; requestId: string }
  | { phase: 'done'; result: TableAdminResult }
  | { phase: 'cancelled' }
  | { phase: 'failed'; error: AppError };

type Start =
  | { channel: 'tables:create'; input: Omit<Parameters<typeof call<'tables:create'>>[1], 'requestId'> }
  | { channel: 'tables:update'; input: Omit<Parameters<typeof call<'tables:update'>>[1], 'requestId'> };

/**
 * Runs tables:create or tables:update as the operation main makes of it: the start call's
 * refusal (read-only, a field's problem) or the operation's end, and Cancel for the following.
 */
export function useTableOperation(onDone?: (result: TableAdminResult) => void) {
  const [state, setState] = useState<TableOperationPhase>({ phase: 'idle' });
  const requestId = state.phase === 'running' ? state.requestId : undefined;
  const operation = useOperation(requestId);

  useEffect(() => {
    if (!requestId) return undefined;
    return onOperation(requestId, (event) => {
      // tables:create and tables:update end alike, with a tableAdminResult.
      const result = event.type === 'done' ? doneValueOf('tables:create', event.value) : undefined;
      if (result) {
        setState({ phase: 'done', result });
        onDone?.(result);
      } else if (event.type === 'cancelled') setState({ phase: 'cancelled' });
      else if (event.type === 'error') setState({ phase: 'failed', error: event.error });
    });
  }, [requestId, onDone]);

  const start = useCallback(async (request: Start) => {
    const id = newRequestId(request.channel === 'tables:create' ? 'create' : 'update');
    setState({ phase: 'running', requestId: id });
    const envelope =
      request.channel === 'tables:create'
        ? await call('tables:create', { ...request.input, requestId: id })
        : await call('tables:update', { ...request.input, requestId: id });
    if (!envelope.ok) setState({ phase: 'failed', error: envelope.error });
  }, []);

  const cancel = useCallback(() => {
    if (requestId) void call('ops:cancel', { requestId });
  }, [requestId]);

  const reset = useCallback(() => setState({ phase: 'idle' }), []);

  return { state, message: operation?.progress?.message, start, cancel, reset };
}

/** Field problems main sent back with a refusal, keyed by field path. */
export function fieldsOf(error: AppError | undefined): { field: string; message: string }[] {
  const fields = error?.details?.fields;
  return Array.isArray(fields) ? (fields as { field: string; message: string }[]) : [];
}
