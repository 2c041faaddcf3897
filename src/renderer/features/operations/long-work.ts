import type { AppError, Envelope, OperationEvent, Progress } from '../../../shared/ipc';
import { ErrorCodes } from '../../../shared/errors';
import type {
  ChannelInput,
  ChannelOutput,
  OperationChannel,
  OperationDone,
} from '../../../shared/ipc/contract';
import { call, newRequestId } from '../../ipc/client';
import { doneValueOf, onOperation } from './store';

/**
 * How long work ended, exactly once: done with the value the channel's `done` schema declares
 * (undefined when main sent none or one of another shape), cancelled, or failed with main's
 * sentence. `isRefused`: the start call itself was refused, so nothing ran.
 */
export type LongWorkEnding<C extends OperationChannel> =
  | { type: 'done'; value: OperationDone<C> | undefined; progress: Progress; cursor?: string }
  | { type: 'cancelled'; progress: Progress; cursor?: string }
  | { type: 'failed'; error: AppError; cursor?: string; isRefused: boolean };

export interface LongWorkHandlers<C extends OperationChannel> {
  /** Every event before the ending, in order: progress, page, stream, agent, mfa… */
  onEvent?(event: OperationEvent): void;
  /** The progress events' progress (a shorthand for the commonest onEvent). */
  onProgress?(progress: Progress): void;
  /** The one ending; after it no handler is called again. */
  onEnd?(ending: LongWorkEnding<C>): void;
}

/** One piece of long work the renderer follows under its requestId. */
export interface LongWork {
  readonly requestId: string;
  /** Asks main to stop; the ending (cancelled, or done if it finished first) still comes to onEnd. */
  cancel(): Promise<void>;
  /** Stops listening without stopping the work (the view that showed it went away). */
  stop(): void;
}

/** Work startLongWork started: `started` resolves once main answered the start call (false: refused). */
export type StartedLongWork = LongWork & { started: Promise<boolean> };

/** The channel's input less the requestId, which startLongWork chooses. */
export type LongWorkInput<C extends OperationChannel> = Omit<ChannelInput<C>, 'requestId'>;
/** Starts the work under a requestId (for a view that picks among channels ending alike). */
export type LongWorkStarter<C extends OperationChannel> = (
  requestId: string,
) => Promise<Envelope<ChannelOutput<C>>>;

export interface LongWorkStart<C extends OperationChannel> extends LongWorkHandlers<C> {
  /** The requestId's prefix, which names the work in main's logs ("copy-…"). */
  prefix?: string;
  /** A requestId the caller made (newRequestId) and recorded before starting. */
  requestId?: string;
  /** Main accepted the start call; its answer (a copy's id, a result set's). */
  onStarted?(output: ChannelOutput<C>, requestId: string): void;
  /**
   * What the ending changes beyond the view that started the work (the table list, SQL's
   * catalog, a tab to close): called once at the ending even after stop(), since the work goes
   * on in main when the view goes away (a dialog closed, a tab switched) and the rest of the
   * window must still learn of it. Stopping only ends the view's handlers.
   */
  followUp?(ending: LongWorkEnding<C>): void;
}

const isEnding = (
  event: OperationEvent,
): event is Extract<OperationEvent, { type: 'done' | 'cancelled' | 'error' }> =>
  event.type === 'done' || event.type === 'cancelled' || event.type === 'error';

/**
 * For a view that cannot go on without the done value: the sentence when main ended the work
 * without one of the shape the channel declares (an app and window of different versions).
 */
export function unreadableDoneError(channel: OperationChannel): AppError {
  return {
    code: ErrorCodes.unexpectedResponse,
    message: `${channel} ended with a value DynoTable does not recognise.`,
    retryable: false,
  };
}

/** Asks main to stop the work under requestId (ops:cancel); its ending arrives as usual. */
export async function cancelLongWork(requestId: string): Promise<void> {
  await call('ops:cancel', { requestId });
}

/**
 * Follows work already running under requestId (started by main, or found running after a
 * reload): routes its events to the handlers and settles once — the one place in the renderer
 * that subscribes to a request, reads its `done` value by the channel's schema and stops
 * listening at the ending. Work that ended before this was called still settles (the operations
 * store keeps its last event).
 */
export function followLongWork<C extends OperationChannel = never>(
  /** undefined for work main started itself under no channel (an MFA prompt): no done value. */
  channel: C | undefined,
  requestId: string,
  handlers: LongWorkHandlers<C>,
): LongWork & { settle(ending: LongWorkEnding<C>): void } {
  let isSettled = false;
  let unsubscribe: () => void = () => undefined;
  const settle = (ending: LongWorkEnding<C>): void => {
    if (isSettled) return;
    isSettled = true;
    unsubscribe();
    handlers.onEnd?.(ending);
  };
  unsubscribe = onOperation(requestId, (event) => {
    if (isSettled || event.requestId !== requestId) return;
    if (!isEnding(event)) {
      if (event.type === 'progress') handlers.onProgress?.(event.progress);
      handlers.onEvent?.(event);
      return;
    }
    if (event.type === 'done')
      settle({
        type: 'done',
        value: channel === undefined ? undefined : doneValueOf(channel, event.value),
        progress: event.progress,
        cursor: event.cursor,
      });
    else if (event.type === 'cancelled')
      settle({ type: 'cancelled', progress: event.progress, cursor: event.cursor });
    else settle({ type: 'failed', error: event.error, cursor: event.cursor, isRefused: false });
  });
  return {
    requestId,
    cancel: () => cancelLongWork(requestId),
    stop: () => {
      isSettled = true;
      unsubscribe();
    },
    settle,
  };
}

/**
 * Starts long work on an operation channel and follows it (see followLongWork). It listens before
 * the start call goes out, since a quick operation's events can arrive before the call's answer;
 * its ending is held until that answer, so onStarted always comes before onEnd. A refused start
 * call ends it as `failed` with `isRefused`.
 */
export function startLongWork<C extends OperationChannel>(
  channel: C,
  start: LongWorkInput<C> | LongWorkStarter<C>,
  options: LongWorkStart<C> = {},
): StartedLongWork {
  const requestId = options.requestId ?? newRequestId(options.prefix);
  const { followUp } = options;
  let isStopped = false;
  let isAnswered = false;
  let held: LongWorkEnding<C> | undefined;
  const end = (ending: LongWorkEnding<C>): void => {
    followUp?.(ending);
    if (!isStopped) options.onEnd?.(ending);
  };
  const work = followLongWork(channel, requestId, {
    onEvent: (event) => {
      if (!isStopped) options.onEvent?.(event);
    },
    onProgress: (progress) => {
      if (!isStopped) options.onProgress?.(progress);
    },
    onEnd: (ending) => {
      if (isAnswered) end(ending);
      else held = ending;
    },
  });
  const send: LongWorkStarter<C> =
    typeof start === 'function'
      ? start
      : (id) =>
          // Every operation channel's input has a requestId (its schema requires one); TypeScript
          // cannot see through Omit on a generic channel.
          call(channel, { ...start, requestId: id } as ChannelInput<C>);
  const started = send(requestId).then((envelope) => {
    isAnswered = true;
    if (!isStopped && envelope.ok) options.onStarted?.(envelope.value, requestId);
    if (held) end(held);
    // A refused start ends here: nothing runs in main, so no ending would come to listen for.
    else if (!envelope.ok) work.settle({ type: 'failed', error: envelope.error, isRefused: true });
    return envelope.ok;
  });
  const stop = (): void => {
    isStopped = true;
    // With a follow-up, listening goes on until the ending (followLongWork stops itself then).
    if (!followUp) work.stop();
  };
  return { requestId, cancel: work.cancel, stop, started };
}
