import type { Item } from '../../../shared/dynamo/attribute-value';
import { splitTransactions, type TransactionBatch } from '../../../shared/dynamo/transaction-plan';
import { keyOf } from '../../../shared/dynamo/validate-item';
import { newRequestToken, planChange, type PlannedChange } from '../../../shared/dynamo/write-plan';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { ChangeResult, StagedChange } from '../../../shared/ipc/items';
import { assertValid } from '../items/validation';
import type { ItemTarget } from '../items/item-access';
import { assertConfirmed, assertWritable } from './guards';
import { sendWrite } from './send-write';
import { cancellationMessage, conflictMessage, storedItem } from './write-errors';
import { withBackoff } from './backoff';
import { sendRequest } from './sdk-requests';

interface CancellationReason {
  Code?: string;
  Message?: string;
  Item?: unknown;
}

function keyText(item: Item, t: ItemTarget): string {
  return JSON.stringify(keyOf(item, t.info.keys), Object.keys(keyOf(item, t.info.keys)).sort());
}

/** Refuses the whole commit, before sending anything, if any change is invalid or two touch one item. */
function checkChanges(t: ItemTarget, changes: StagedChange[]): void {
  const problems: { id: string; message: string; issues?: unknown }[] = [];
  const touched = new Map<string, string>();
  for (const change of changes) {
    if (change.desired) {
      try {
        assertValid(t, change.desired);
      } catch (error) {
        if (!(error instanceof AppFailure)) throw error;
        problems.push({ id: change.id, message: error.message, issues: error.details?.issues });
      }
    }
    for (const item of [change.seen, change.desired]) {
      if (!item) continue;
      const key = keyText(item, t);
      const other = touched.get(key);
      if (other && other !== change.id) problems.push({ id: change.id, message: 'Another staged change touches the same item; merge them first.' });
      touched.set(key, change.id);
    }
  }
  if (problems.length > 0) {
    throw new AppFailure(ErrorCodes.invalidInput, `${problems.length} staged change${problems.length === 1 ? ' is' : 's are'} not valid; nothing was written.`, false, {
      changes: problems,
    });
  }
}

async function sendBatch(t: ItemTarget, batch: TransactionBatch, signal?: AbortSignal): Promise<CancellationReason[] | null> {
  try {
    await withBackoff(() => sendRequest(t.client, { operation: 'TransactWriteItems', input: batch.request }, signal), { signal });
    return null;
  } catch (error) {
    if ((error as { name?: string }).name !== 'TransactionCanceledException') throw error;
    return ((error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? []) as CancellationReason[];
  }
}

/** Maps each cancellation reason back to the staged change its action came from. */
function resultsFromReasons(batch: TransactionBatch, reasons: CancellationReason[], changes: StagedChange[], plans: PlannedChange[]): Map<number, ChangeResult> {
  const out = new Map<number, ChangeResult>();
  batch.owners.forEach((owner, i) => {
    const reason = reasons[i];
    const code = reason?.Code ?? 'None';
    const previous = out.get(owner);
    if (previous && previous.status === 'conflict') return;
    if (code === 'None') {
      if (!previous) out.set(owner, { id: changes[owner]!.id, status: 'not-attempted', code: 'None', message: cancellationMessage('None') });
    } else if (code === 'ConditionalCheckFailed') {
      out.set(owner, { id: changes[owner]!.id, status: 'conflict', code, message: conflictMessage(plans[owner]!.kind), current: storedItem(reason?.Item) });
    } else {
      out.set(owner, { id: changes[owner]!.id, status: 'failed', code, message: cancellationMessage(code, reason?.Message) });
    }
  });
  return out;
}

/**
 * Commits staged changes: one conditional write when there is a single one-action change
 * (a transaction costs twice the capacity), otherwise TransactWriteItems batches of at most
 * 100 actions and 4 MB. Batches are sent in order and stop at the first failure, so the user
 * sees exactly which changes landed.
 */
export async function commitChanges(t: ItemTarget, changes: StagedChange[], token: string, confirmTable?: string, signal?: AbortSignal) {
  assertWritable(t.connection);
  checkChanges(t, changes);
  const target = { table: t.info.table, keys: t.info.keys };
  const plans = changes.map((c) => planChange(target, c));
  const deletes = plans.filter((p) => p.kind === 'delete').length;
  if (deletes > 0) assertConfirmed(t.connection, t.info.table, 'commit-with-deletes', deletes, confirmTable);
  const results: ChangeResult[] = changes.map((c) => ({ id: c.id, status: 'not-attempted' }));
  plans.forEach((p, i) => p.kind === 'none' && (results[i] = { id: changes[i]!.id, status: 'written' }));
  const live = plans.map((p, i) => ({ p, i })).filter(({ p }) => p.actions.length > 0);
  if (live.length === 1 && live[0]!.p.actions.length === 1) {
    const { p, i } = live[0]!;
    try {
      await sendWrite(t.client, p.request!, p.kind, { desired: changes[i]!.desired, signal });
      results[i] = { id: changes[i]!.id, status: 'written' };
    } catch (error) {
      if (!(error instanceof AppFailure) || error.code !== 'ConditionalCheckFailedException') throw error;
      results[i] = { id: changes[i]!.id, status: 'conflict', code: 'ConditionalCheckFailed', message: error.message, current: (error.details?.current as Item | null) ?? null };
    }
    return { results, batches: 1, committedBatches: results[i]!.status === 'written' ? 1 : 0 };
  }
  const batches = splitTransactions(live.map(({ p }) => p.actions), token);
  let committedBatches = 0;
  for (const batch of batches) {
    const owners = batch.owners.map((o) => live[o]!.i);
    const remapped = { ...batch, owners };
    const reasons = await sendBatch(t, remapped, signal);
    if (reasons === null) {
      for (const owner of new Set(owners)) results[owner] = { id: changes[owner]!.id, status: 'written' };
      committedBatches++;
      continue;
    }
    for (const [owner, result] of resultsFromReasons(remapped, reasons, changes, plans)) results[owner] = result;
    break;
  }
  return { results, batches: batches.length, committedBatches };
}

/** A key change on its own: one transaction, whose token a retry may reuse. */
export async function commitOne(t: ItemTarget, planned: PlannedChange, token?: string): Promise<void> {
  const [batch] = splitTransactions([planned.actions], token ?? newRequestToken());
  if (!batch) return;
  const reasons = await sendBatch(t, batch);
  if (reasons === null) return;
  const index = reasons.findIndex((r) => r.Code && r.Code !== 'None');
  const failed = reasons[index];
  if (failed?.Code === 'ConditionalCheckFailed') {
    // Action 0 deletes the old item, action 1 puts the new one: say which condition failed.
    const message =
      index === 1
        ? 'An item with the new key already exists, so the key was not changed. The stored item is shown.'
        : conflictMessage('key-change');
    throw new AppFailure('ConditionalCheckFailedException', message, false, { current: storedItem(failed.Item), kind: 'key-change', action: index === 1 ? 'put' : 'delete' });
  }
  throw new AppFailure('TransactionCanceledException', cancellationMessage(failed?.Code, failed?.Message), true, { reasons });
}
