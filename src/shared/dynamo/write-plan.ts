import type { KeySchema } from '../ipc/tables';
import type { Item } from './attribute-value';
import { diffItems, type AttributeChange } from './diff';
import { ExpressionContext, MAX_EXPRESSION_LENGTH, MAX_EXPRESSION_OPERATORS } from './expression-context';
import { seenCondition, type ConditionCoverage } from './seen-condition';
import { keyOf } from './validate-item';
import { valuesEqual } from './value-equality';
import type {
  DeleteRequest,
  PutRequest,
  TransactAction,
  UpdateRequest,
  WriteRequest,
} from './write-requests';
import { ownValue } from './proto-keys';

export interface TableTarget {
  table: string;
  keys: KeySchema;
}

/** One staged edit: seen null = create, desired null = delete, both = update (or key change). */
export interface ItemChange {
  seen: Item | null;
  desired: Item | null;
}

export type ChangeKind = 'create' | 'update' | 'delete' | 'key-change' | 'none';

export interface PlannedChange {
  kind: ChangeKind;
  diff: AttributeChange[];
  /** The actions this change needs inside a transaction (two for a key change). */
  actions: TransactAction[];
  /** The request sent when the change is committed on its own. */
  request: WriteRequest | null;
  coverage?: ConditionCoverage;
}

function keyName(keys: KeySchema): string {
  return keys.partitionKey.name;
}

export function changeKind(change: ItemChange, keys: KeySchema): ChangeKind {
  if (!change.seen && !change.desired) return 'none';
  if (!change.seen) return 'create';
  if (!change.desired) return 'delete';
  const before = keyOf(change.seen, keys);
  const after = keyOf(change.desired, keys);
  const sameKey =
    Object.keys(before).length === Object.keys(after).length &&
    Object.entries(before).every(([k, v]) => {
      const other = ownValue(after, k);
      return other !== undefined && valuesEqual(v, other);
    });
  if (!sameKey) return 'key-change';
  return diffItems(change.seen, change.desired).length === 0 ? 'none' : 'update';
}

/** Create: the put only lands if no item has this key (attribute_not_exists on the partition key covers both keys). */
export function planPut(target: TableTarget, item: Item): PutRequest {
  const ctx = new ExpressionContext();
  return {
    TableName: target.table,
    Item: item,
    ConditionExpression: `attribute_not_exists(${ctx.name(keyName(target.keys))})`,
    ...ctx.fields(),
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

/** Delete, only if the item still is what the user saw. */
export function planDelete(
  target: TableTarget,
  seen: Item,
): { request: DeleteRequest; coverage: ConditionCoverage } {
  const ctx = new ExpressionContext();
  const condition = seenCondition(ctx, seen, Object.keys(keyOf(seen, target.keys)), []);
  return {
    request: {
      TableName: target.table,
      Key: keyOf(seen, target.keys),
      ConditionExpression: condition.expression,
      ...ctx.fields(),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
    coverage: condition.coverage,
  };
}

/**
 * Save: an UpdateItem of the changed attributes only (SET what changed or was added, REMOVE
 * what was removed), conditioned on what the user saw. An edit too large for one update
 * expression falls back to a conditional put of the whole item.
 */
export function planUpdate(
  target: TableTarget,
  seen: Item,
  desired: Item,
): { request: UpdateRequest | PutRequest; coverage: ConditionCoverage; diff: AttributeChange[] } {
  const diff = diffItems(seen, desired);
  const ctx = new ExpressionContext();
  const sets = diff.flatMap((c) => (c.after ? [`${ctx.name(c.name)} = ${ctx.value(c.after)}`] : []));
  const removes = diff.filter((c) => c.kind === 'removed').map((c) => ctx.name(c.name));
  const update = [
    sets.length > 0 ? `SET ${sets.join(', ')}` : '',
    removes.length > 0 ? `REMOVE ${removes.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const added = diff.filter((c) => c.kind === 'added').map((c) => c.name);
  const touched = diff.map((c) => c.name);
  if (
    update.length <= MAX_EXPRESSION_LENGTH &&
    sets.length + removes.length <= MAX_EXPRESSION_OPERATORS / 2
  ) {
    const condition = seenCondition(ctx, seen, touched, added);
    return {
      request: {
        TableName: target.table,
        Key: keyOf(seen, target.keys),
        UpdateExpression: update,
        ConditionExpression: condition.expression,
        ...ctx.fields(),
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
      coverage: condition.coverage,
      diff,
    };
  }
  const putCtx = new ExpressionContext();
  const removed = diff.filter((c) => c.kind === 'removed').map((c) => c.name);
  const condition = seenCondition(putCtx, seen, [...touched, ...removed], added);
  return {
    request: {
      TableName: target.table,
      Item: desired,
      ConditionExpression: condition.expression,
      ...putCtx.fields(),
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
    coverage: condition.coverage,
    diff,
  };
}

function withoutReturnValues(request: UpdateRequest): Omit<UpdateRequest, 'ReturnValues'> {
  const { ReturnValues: _ignored, ...rest } = request;
  return rest;
}

/** Plans one staged change: its diff, its standalone request and its transaction actions. */
export function planChange(target: TableTarget, change: ItemChange, token?: string): PlannedChange {
  const kind = changeKind(change, target.keys);
  const { seen, desired } = change;
  if (kind === 'create' && desired) {
    const put = planPut(target, desired);
    return {
      kind,
      diff: diffItems({}, desired),
      actions: [{ Put: put }],
      request: { operation: 'PutItem', input: put },
    };
  }
  if (kind === 'delete' && seen) {
    const { request, coverage } = planDelete(target, seen);
    return {
      kind,
      diff: diffItems(seen, {}),
      actions: [{ Delete: request }],
      request: { operation: 'DeleteItem', input: request },
      coverage,
    };
  }
  if (kind === 'update' && seen && desired) {
    const { request, coverage, diff } = planUpdate(target, seen, desired);
    if ('Item' in request)
      return {
        kind,
        diff,
        actions: [{ Put: request }],
        request: { operation: 'PutItem', input: request },
        coverage,
      };
    return {
      kind,
      diff,
      actions: [{ Update: withoutReturnValues(request) }],
      request: { operation: 'UpdateItem', input: request },
      coverage,
    };
  }
  if (kind === 'key-change' && seen && desired) {
    // A key is part of the item's identity: DynamoDB cannot update it, so the old item is
    // deleted (if unchanged) and the new one put (if its key is free) in one transaction.
    const { request: del, coverage } = planDelete(target, seen);
    const put = planPut(target, desired);
    const actions: TransactAction[] = [{ Delete: del }, { Put: put }];
    return {
      kind,
      diff: diffItems(seen, desired),
      actions,
      request: {
        operation: 'TransactWriteItems',
        input: { TransactItems: actions, ClientRequestToken: token ?? newRequestToken() },
      },
      coverage,
    };
  }
  return { kind: 'none', diff: [], actions: [], request: null };
}

/** A ClientRequestToken: 32 hex characters, leaving room for a batch suffix within DynamoDB's 36. */
export function newRequestToken(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
