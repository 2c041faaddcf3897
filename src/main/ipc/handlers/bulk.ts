import { resolveTarget } from '../../dynamo/items/item-access';
import { prepareBulk, previewBulk } from '../../dynamo/writes/bulk';
import type { Handler } from '../dispatcher';

/** bulk:* — preview first (count, sample, request), then run as a cancellable operation. */
export const bulkHandlers: { 'bulk:preview': Handler<'bulk:preview'>; 'bulk:start': Handler<'bulk:start'> } =
  {
    'bulk:preview': async (input, ctx) =>
      previewBulk(ctx, await resolveTarget(ctx, input.connectionId, input.table, 'bulk'), input),
    'bulk:start': async (input, ctx) => {
      const target = await resolveTarget(ctx, input.connectionId, input.table, 'bulk');
      const work = await prepareBulk(ctx, target, input);
      ctx.operations.start(input.requestId, work);
      return { started: true };
    },
  };
