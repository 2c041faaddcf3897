import type { BulkAction } from '../ipc/items';
import type { KeySchema } from '../ipc/tables';
import type { Item } from './attribute-value';
import { ExpressionContext } from './expression-context';
import { seenCondition } from './seen-condition';
import { keyOf } from './validate-item';
import type { WriteRequest } from './write-requests';

export interface BulkTarget {
  table: string;
  keys: KeySchema;
}

function keyNames(keys: KeySchema): string[] {
  return [keys.partitionKey.name, ...(keys.sortKey ? [keys.sortKey.name] : [])];
}

/** Why a bulk update cannot run (it touches a key attribute), or undefined. */
export function bulkActionProblem(target: BulkTarget, action: BulkAction): string | undefined {
  if (action.type === 'delete') return undefined;
  if (action.set.length === 0 && action.remove.length === 0)
    return 'The bulk update sets and removes nothing.';
  const keys = new Set(keyNames(target.keys));
  const touched = [...action.set.map((s) => s.path), ...action.remove].find(
    (path) => path.length === 1 && keys.has(String(path[0])),
  );
  return touched
    ? `"${String(touched[0])}" is part of the key, which DynamoDB cannot update; change keys one item at a time.`
    : undefined;
}

/** The top-level attributes a bulk update sets or removes (a path's first name). */
export function touchedNames(action: BulkAction): string[] {
  if (action.type === 'delete') return [];
  const paths = [...action.set.map((s) => s.path), ...action.remove];
  return [...new Set(paths.map((path) => String(path[0])))];
}

/**
 * The request a bulk delete or update sends for one item. Both only touch items that still
 * exist (a bulk update must never create half-empty items); with conditionOnSeen they also
 * require every attribute that was read to still hold its value.
 *
 * With `guard` (the item as a consistent read found it just before) the write instead requires
 * the item to still be exactly that: the attributes the update touches first (the ones it
 * would add still absent), then the rest while DynamoDB's expression limits allow. Once the
 * write is applied that no longer holds, so the SDK's retry of a write whose answer was lost
 * fails its condition instead of applying again and returning its own result as "before".
 */
export function planBulkRequest(
  target: BulkTarget,
  item: Item,
  action: BulkAction,
  conditionOnSeen: boolean,
  options: { returnDeleted?: boolean; guard?: Item } = {},
): WriteRequest {
  const ctx = new ExpressionContext();
  const key = keyOf(item, target.keys);
  const { guard } = options;
  const touched = touchedNames(action);
  const condition = guard
    ? seenCondition(
        ctx,
        guard,
        [...Object.keys(key), ...touched],
        touched.filter((name) => !Object.hasOwn(guard, name)),
      ).expression
    : conditionOnSeen
      ? seenCondition(ctx, item, Object.keys(key), []).expression
      : `attribute_exists(${ctx.name(target.keys.partitionKey.name)})`;
  if (action.type === 'delete') {
    return {
      operation: 'DeleteItem',
      input: {
        TableName: target.table,
        Key: key,
        ConditionExpression: condition,
        ...ctx.fields(),
        // The deleted item comes back, so the undo journal keeps exactly what was stored.
        ...(options.returnDeleted ? { ReturnValues: 'ALL_OLD' as const } : {}),
        ...(guard ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
      },
    };
  }
  const sets = action.set.map((s) => `${ctx.path(s.path)} = ${ctx.value(s.value)}`);
  const removes = action.remove.map((p) => ctx.path(p));
  const update = [
    sets.length > 0 ? `SET ${sets.join(', ')}` : '',
    removes.length > 0 ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return {
    operation: 'UpdateItem',
    input: {
      TableName: target.table,
      Key: key,
      UpdateExpression: update,
      ConditionExpression: condition,
      ...ctx.fields(),
      // The whole item before comes back, for undo (a projected read may lack an attribute the
      // update removes); what it left, for the grids, is worked out from it (applyBulkUpdate).
      ReturnValues: 'ALL_OLD',
      ...(guard ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    },
  };
}
