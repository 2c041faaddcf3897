import type { HandlerTable } from '../dispatcher';

export const operationHandlers: Pick<HandlerTable, 'ops:cancel'> = {
  'ops:cancel': ({ requestId }, ctx) => Promise.resolve({ cancelled: ctx.operations.cancel(requestId) }),
};
