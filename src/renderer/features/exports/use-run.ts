import { useState } from 'react';
import type { AppError, OperationEvent } from '../../../shared/ipc';
import { useOperation } from '../operations/store';

export interface Run {
  requestId: string;
  /** What the progress line says the run is (“Exporting Orders”). */
  title: string;
}

/** One operation at a time per view, read from the operations store so no event is missed. */
export function useRun() {
  const [run, setRun] = useState<Run>();
  const operation = useOperation(run?.requestId);
  const latest: OperationEvent | undefined = operation?.latest;
  const error: AppError | undefined = latest?.type === 'error' ? latest.error : undefined;
  return {
    run,
    setRun,
    progress: operation?.progress,
    isRunning: run !== undefined && !operation?.isFinished,
    done: latest?.type === 'done' ? latest.value : undefined,
    isCancelled: latest?.type === 'cancelled',
    error,
  };
}
