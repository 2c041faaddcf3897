import { useCallback } from 'react';
import type { AppError } from '../../../../shared/ipc';
import type { TableAdminResult } from '../../../../shared/ipc/table-admin';
import { call } from '../../../ipc/client';
import { type LongWorkEnding, unreadableDoneError } from '../../operations/long-work';
import { useLongWork } from '../../operations/use-long-work';

export type TableOperationPhase =
  | { phase: 'idle' }
  | { phase: 'running'; requestId: string }
  | { phase: 'done'; result: TableAdminResult }
  | { phase: 'cancelled' }
  | { phase: 'failed'; error: AppError };

type Start =
  | { channel: 'tables:create'; input: Omit<Parameters<typeof call<'tables:create'>>[1], 'requestId'> }
  | { channel: 'tables:update'; input: Omit<Parameters<typeof call<'tables:update'>>[1], 'requestId'> };

// tables:create and tables:update end alike, with a tableAdminResult.
function phaseOf(ending: LongWorkEnding<'tables:create'>): TableOperationPhase {
  if (ending.type === 'cancelled') return { phase: 'cancelled' };
  if (ending.type === 'failed') return { phase: 'failed', error: ending.error };
  return ending.value
    ? { phase: 'done', result: ending.value }
    : { phase: 'failed', error: unreadableDoneError('tables:create') };
}

/**
 * Runs tables:create or tables:update as the operation main makes of it: the start call's
 * refusal (read-only, a field's problem) or the operation's end, and Cancel for the following.
 * `onDone` is a follow-up: it runs even when the form was closed before the table was ready.
 */
export function useTableOperation(onDone?: (result: TableAdminResult) => void) {
  const work = useLongWork('tables:create', {
    followUp: (ending) => {
      if (ending.type === 'done' && ending.value) onDone?.(ending.value);
    },
  });
  const state: TableOperationPhase =
    work.state.status === 'idle'
      ? { phase: 'idle' }
      : work.state.status === 'running'
        ? { phase: 'running', requestId: work.state.requestId }
        : phaseOf(work.state.ending);
  const { start: startWork } = work;
  const start = useCallback(
    (request: Start) =>
      startWork((requestId) =>
        request.channel === 'tables:create'
          ? call('tables:create', { ...request.input, requestId })
          : call('tables:update', { ...request.input, requestId }),
      ),
    [startWork],
  );
  return {
    state,
    message: work.progress?.message,
    start,
    cancel: () => void work.cancel(),
    reset: work.reset,
  };
}

/** Field problems main sent back with a refusal, keyed by field path. */
export function fieldsOf(error: AppError | undefined): { field: string; message: string }[] {
  const fields = error?.details?.fields;
  return Array.isArray(fields) ? (fields as { field: string; message: string }[]) : [];
}
