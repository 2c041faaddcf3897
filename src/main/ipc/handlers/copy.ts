import { discardCopy, listCopies, resumeCopy, startCopy } from '../../dynamo/copy/copy-service';
import type { HandlerTable } from '../dispatcher';

/** copy:* — every check happens in main before the operation starts (see copy-service.ts). */
export const copyHandlers: Pick<HandlerTable, 'copy:start' | 'copy:resume' | 'copy:list' | 'copy:discard'> = {
  'copy:start': (input, ctx) => startCopy(ctx, input),
  'copy:resume': ({ requestId, copyId }, ctx) => resumeCopy(ctx, requestId, copyId),
  'copy:list': (_input, ctx) => listCopies(ctx),
  'copy:discard': ({ copyId }, ctx) => discardCopy(ctx, copyId),
};
