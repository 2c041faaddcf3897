import type { HandlerTable } from '../dispatcher';

type PlaygroundChannel = 'playground:status' | 'playground:start';

/**
 * playground:start resolves once DynamoDB Local answers (and the sample exists), or with
 * state 'unavailable' / 'failed' and a sentence saying why: not being able to run the
 * playground is a state to show, not an error.
 */
export const playgroundHandlers: Pick<HandlerTable, PlaygroundChannel> = {
  'playground:status': (_input, ctx) => Promise.resolve(ctx.playground.status()),
  'playground:start': (_input, ctx) => ctx.playground.start(),
};
