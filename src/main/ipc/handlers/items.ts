import { resolveTarget } from '../../dynamo/items/item-access';
import { createItem, deleteItem, getItem, updateItem } from '../../dynamo/items/single-item';
import { commitChanges } from '../../dynamo/writes/commit';
import type { Handler } from '../dispatcher';

/** items:* — thin: resolve the connection, client and table keys, then call the domain module. */
export const itemHandlers: {
  'items:get': Handler<'items:get'>;
  'items:create': Handler<'items:create'>;
  'items:delete': Handler<'items:delete'>;
  'items:update': Handler<'items:update'>;
  'items:commit': Handler<'items:commit'>;
} = {
  'items:get': async (input, ctx) => {
    const target = await resolveTarget(ctx, input.connectionId, input.table, 'editor');
    return { item: await getItem(target, input.key, input.consistent) };
  },
  'items:create': async (input, ctx) => {
    const target = await resolveTarget(ctx, input.connectionId, input.table, 'editor');
    return createItem(target, input.item);
  },
  'items:delete': async (input, ctx) => {
    const target = await resolveTarget(ctx, input.connectionId, input.table, 'editor');
    return deleteItem(target, input.key, input.expected, input.confirmTable);
  },
  'items:update': async (input, ctx) => {
    const target = await resolveTarget(ctx, input.connectionId, input.table, 'editor');
    return updateItem(target, input.seen, input.desired, input.token);
  },
  'items:commit': async (input, ctx) => {
    const target = await resolveTarget(ctx, input.connectionId, input.table, 'grid');
    return commitChanges(target, input.changes, input.token, input.confirmTable);
  },
};
