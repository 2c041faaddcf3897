import { useCallback, useEffect, useRef, useState } from 'react';
import type { OperationChannel } from '../../../shared/ipc/contract';
import {
  followLongWork,
  type LongWork,
  type LongWorkEnding,
  type LongWorkInput,
  type LongWorkStart,
  type LongWorkStarter,
  startLongWork,
} from './long-work';
import { useOperation } from './store';

export type LongWorkState<C extends OperationChannel> =
  | { status: 'idle' }
  | { status: 'running'; requestId: string }
  | { status: 'ended'; requestId: string; ending: LongWorkEnding<C> };

/**
 * Long work a component starts and shows (startLongWork underneath): its state survives
 * re-renders, a new start replaces the one before, and unmounting stops listening — it does
 * not cancel the work, which goes on in main (a copy whose dialog was closed, say), and its
 * `followUp` still runs at the ending. The other handlers are read at the moment an event
 * comes, so they may close over fresh props.
 */
export function useLongWork<C extends OperationChannel>(channel: C, options: LongWorkStart<C> = {}) {
  const [state, setState] = useState<LongWorkState<C>>({ status: 'idle' });
  const work = useRef<LongWork | undefined>(undefined);
  const handlers = useRef(options);
  useEffect(() => {
    handlers.current = options;
  });
  useEffect(() => () => work.current?.stop(), []);

  const start = useCallback(
    (how: LongWorkInput<C> | LongWorkStarter<C>): Promise<boolean> => {
      work.current?.stop();
      const next = startLongWork(channel, how, {
        prefix: handlers.current.prefix,
        onEvent: (event) => handlers.current.onEvent?.(event),
        onProgress: (progress) => handlers.current.onProgress?.(progress),
        onStarted: (output, requestId) => handlers.current.onStarted?.(output, requestId),
        // The start's own, kept when the view unmounts: what the rest of the window learns at the ending.
        followUp: handlers.current.followUp,
        onEnd: (ending) => {
          setState({ status: 'ended', requestId: next.requestId, ending });
          handlers.current.onEnd?.(ending);
        },
      });
      work.current = next;
      setState({ status: 'running', requestId: next.requestId });
      return next.started;
    },
    [channel],
  );
  const cancel = useCallback(async () => {
    await work.current?.cancel();
  }, []);
  /** Back to idle: forgets the ending (and stops listening to work still running). */
  const reset = useCallback(() => {
    work.current?.stop();
    work.current = undefined;
    setState({ status: 'idle' });
  }, []);

  const requestId = state.status === 'running' ? state.requestId : undefined;
  const progress = useOperation(requestId)?.progress;
  return {
    state,
    /** Set while the work runs. */
    requestId,
    isRunning: state.status === 'running',
    progress,
    ending: state.status === 'ended' ? state.ending : undefined,
    start,
    cancel,
    reset,
  };
}

/**
 * Settles work whose requestId a store holds (started there, or found running after a reload)
 * while the component that shows it is mounted: followLongWork for the life of the requestId.
 */
export function useFollowLongWork<C extends OperationChannel>(
  channel: C,
  requestId: string | undefined,
  onEnd: (ending: LongWorkEnding<C>) => void,
): void {
  const handler = useRef(onEnd);
  useEffect(() => {
    handler.current = onEnd;
  });
  useEffect(() => {
    if (!requestId) return undefined;
    return followLongWork(channel, requestId, { onEnd: (ending) => handler.current(ending) }).stop;
  }, [channel, requestId]);
}
