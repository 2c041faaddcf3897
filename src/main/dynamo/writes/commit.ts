import type { Item } from '../../../shared/dynamo/attribute-value';
import { splitTransactions, type TransactionBatch } from '../../../shared/dynamo/transaction-plan';
import { keyOf } from '../../../shared/dynamo/validate-item';
import { newRequestToken, planChange, type PlannedChange } from '../../../shared/dynamo/write-plan';
import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { ChangeResult, StagedChange } from '../../../shared/ipc/items';
import type { WrittenItem } from '../../resultsets/types';
import { toAppError } from '../../core/to-app-error';
import type { ItemTarget } from '../items/item-access';
import { assertValid } from '../items/validation';
import type { JournalPair, JournalWriter, WriteIntent } from '../../journal/journal-files';
import { announceWrites, keepForUndo } from '../../journal/keep';
import { keyText as storedKeyText, storedItems } from '../transfer/existing-keys';
import { assertConfirmed, assertWritable } from './guards';
import { sendRequest } from './sdk-requests';
import { sendWrite } from './send-write';
import { beforeUpdate } from './update-before';
import { CONDITIONAL_FAILED, cancellationMessage, conflictMessage, storedItem } from './write-errors';

interface CancellationReason {
  Code?: string;
  Message?: string;
  Item?: unknown;
}

interface Entry {
  change: StagedChange;
  plan: PlannedChange;
  result: ChangeResult;
  /** What DynamoDB returned as stored after a single write (ALL_NEW of an update). */
  stored?: Item | null;
}

function keyText(item: Item, t: ItemTarget): string {
  const key = keyOf(item, t.info.keys);
  return JSON.stringify(Object.entries(key).sort(([a], [b]) => (a < b ? -1 : 1)));
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
      if (other !== undefined && other !== change.id) {
        problems.push({
          id: change.id,
          message: 'Another staged change touches the same item; merge them first.',
        });
      }
      touched.set(key, change.id);
    }
  }
  if (problems.length > 0) {
    const count = `${problems.length} staged change${problems.length === 1 ? ' is' : 's are'}`;
    throw new AppFailure(ErrorCodes.invalidInput, `${count} not valid; nothing was written.`, false, {
      changes: problems,
    });
  }
}

async function sendBatch(
  t: ItemTarget,
  batch: TransactionBatch,
  signal?: AbortSignal,
): Promise<CancellationReason[] | null> {
  try {
    // Like a single save, retried by the SDK only: the user is waiting, and a retry of the whole
    // commit with the same token is safe.
    await sendRequest(t.client, { operation: 'TransactWriteItems', input: batch.request }, signal);
    return null;
  } catch (error) {
    if ((error as { name?: string }).name !== 'TransactionCanceledException') throw error;
    return (error as { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
  }
}

/** Maps each cancellation reason back to the staged change its action came from. */
function applyReasons(owners: Entry[], reasons: CancellationReason[]): void {
  owners.forEach((entry, i) => {
    const reason = reasons[i];
    const code = reason?.Code ?? 'None';
    if (entry.result.status === 'conflict' || entry.result.status === 'failed') return;
    const id = entry.change.id;
    if (code === 'None')
      entry.result = { id, status: 'not-attempted', code, message: cancellationMessage('None') };
    else if (code === 'ConditionalCheckFailed') {
      entry.result = {
        id,
        status: 'conflict',
        code,
        message: conflictMessage(entry.plan.kind),
        current: storedItem(reason?.Item),
      };
    } else entry.result = { id, status: 'failed', code, message: cancellationMessage(code, reason?.Message) };
  });
}

async function commitSingle(t: ItemTarget, entry: Entry, signal?: AbortSignal): Promise<void> {
  const { change, plan } = entry;
  if (!plan.request) return;
  try {
    const { attributes } = await sendWrite(t.client, plan.request, plan.kind, {
      desired: change.desired,
      signal,
    });
    entry.result = { id: change.id, status: 'written' };
    if (attributes) entry.stored = attributes;
  } catch (error) {
    if (!(error instanceof AppFailure) || error.code !== CONDITIONAL_FAILED) throw error;
    const current = (error.details?.current as Item | null | undefined) ?? null;
    entry.result = {
      id: change.id,
      status: 'conflict',
      code: 'ConditionalCheckFailed',
      message: error.message,
      current,
    };
  }
}

/** The journal's words for a commit: the grid commits staged changes, others name themselves. */
function commitReason(t: ItemTarget, changes: number): string {
  const staged = `${changes} staged change${changes === 1 ? '' : 's'}`;
  return t.source === 'grid' ? `Committed ${staged}` : `Committed ${staged} (${t.source})`;
}

/**
 * Commits staged changes: one conditional write when there is a single one-action change
 * (a transaction costs twice the capacity), otherwise TransactWriteItems batches of at most
 * 100 actions and 4 MB. Batches are sent in order and stop at the first failure, so the user
 * sees exactly which changes landed.
 */
export async function commitChanges(
  t: ItemTarget,
  changes: StagedChange[],
  token: string,
  confirmTable?: string,
  signal?: AbortSignal,
) {
  assertWritable(t.connection);
  checkChanges(t, changes);
  const target = { table: t.info.name, keys: t.info.keys };
  const entries: Entry[] = changes.map((change) => {
    const plan = planChange(target, change);
    const status = plan.kind === 'none' ? 'written' : 'not-attempted';
    return { change, plan, result: { id: change.id, status } };
  });
  const deletes = entries.filter((e) => e.plan.kind === 'delete').length;
  if (deletes > 0) assertConfirmed(t.connection, t.info.name, 'commit-with-deletes', deletes, confirmTable);
  const live = entries.filter((e) => e.plan.actions.length > 0);
  const single = live.length === 1 && live[0]?.plan.actions.length === 1 ? live[0] : undefined;
  const journal = t.journal('commit', commitReason(t, live.length));
  // Each batch is noted in the journal before it is sent (kill-safe): a run killed meanwhile
  // leaves its intents, which the next start resolves by reading the items.
  const announce = (owners: Entry[]) => announceWrites(journal, intentsOf(t, owners));
  if (single) {
    try {
      await announce([single]);
      await commitSingle(t, single, signal);
    } catch (error) {
      // Every answer lost is not nothing written: the journal reads the item to tell.
      await keepForUndo(journal);
      throw error;
    }
    await readBack(t, [single], signal);
    await t.record(writtenItems(t, [single]));
    const written = single.result.status === 'written' ? 1 : 0;
    const kept = await keepCommit(t, journal, [single], new Set());
    return { results: entries.map((e) => e.result), batches: 1, committedBatches: written, ...kept };
  }
  const batches = splitTransactions(
    live.map((e) => e.plan.actions),
    token,
  );
  let committedBatches = 0;
  /** Owners of a transaction whose answer never came: whether it landed is read, not assumed. */
  const unheard = new Set<Entry>();
  for (const batch of batches) {
    const owners = batch.owners.map((o) => live[o]).filter((e): e is Entry => e !== undefined);
    let reasons: CancellationReason[] | null;
    try {
      await announce(owners);
      reasons = await sendBatch(t, batch, signal);
    } catch (error) {
      // Nothing landed yet: one error for the whole commit, which the same token retries safely.
      if (committedBatches === 0) {
        await t.record(writtenItems(t, live));
        await keepForUndo(journal);
        throw error;
      }
      // Earlier transactions landed: an error alone would hide that, and the user could discard
      // changes that are already in the table. Say which landed and why the rest did not.
      const { code, message, details } = toAppError(error);
      // Kept so the staged panel can offer "Sign in again" as every other expired-session error does.
      const canSignIn = details?.canSignIn === true ? { canSignIn: true } : {};
      for (const entry of owners) {
        entry.result = { id: entry.change.id, status: 'failed', code, message, ...canSignIn };
        unheard.add(entry);
      }
      break;
    }
    if (reasons === null) {
      for (const entry of owners) entry.result = { id: entry.change.id, status: 'written' };
      committedBatches++;
      continue;
    }
    applyReasons(owners, reasons);
    break;
  }
  await readBack(t, live, signal);
  await t.record(writtenItems(t, live));
  const kept = await keepCommit(t, journal, live, unheard);
  return { results: entries.map((e) => e.result), batches: batches.length, committedBatches, ...kept };
}

/**
 * What the journal notes before a change is sent: the item as the user saw it (which the
 * condition checks) and the change as planned. Once DynamoDB answers, undoPairs replaces it.
 */
function intentsOf(t: ItemTarget, owners: Entry[]): WriteIntent[] {
  return undoPairs(
    t,
    owners.map((e) => ({ ...e, stored: undefined, result: { id: e.change.id, status: 'written' } })),
  );
}

/**
 * Finishes the commit's entry: the changes written, with what DynamoDB returned; the changes
 * refused or never sent dropped from the intents; those whose answer was lost left for the
 * journal to read (keepForUndo → finish).
 */
async function keepCommit(t: ItemTarget, journal: JournalWriter, entries: Entry[], unheard: Set<Entry>) {
  for (const entry of entries) {
    if (entry.result.status === 'written' || unheard.has(entry)) continue;
    for (const pair of intentsOf(t, [entry])) await journal.refuse(pair.key).catch(() => undefined);
  }
  return keepForUndo(journal, undoPairs(t, entries));
}

/**
 * A transaction returns no attributes, and DynamoDB may store a value in another form than the
 * one planned (N "1.50" is stored as "1.5"), so the written items are read back, consistently,
 * for every view and the journal to hold what is stored. The commit has landed by now: a failed
 * read-back leaves the planned items in place rather than turning the commit into an error.
 */
async function readBack(t: ItemTarget, entries: Entry[], signal?: AbortSignal): Promise<void> {
  const written = entries.filter(
    (e) => e.result.status === 'written' && e.change.desired && e.stored === undefined,
  );
  if (written.length === 0) return;
  let stored: Map<string, Item>;
  try {
    stored = await storedItems(
      t,
      written.map((e) => e.change.desired!),
      signal,
      true,
    );
  } catch {
    return;
  }
  for (const entry of written)
    entry.stored = stored.get(storedKeyText(keyOf(entry.change.desired!, t.info.keys))) ?? null;
}

/**
 * The undo journal's view of a commit: per key, what the write replaced (an update: what DynamoDB
 * holds after it with the touched attributes as the user saw them, see update-before.ts; a
 * delete: the item as the user loaded it, which it was conditioned on) and what the write left (the returned item, or the planned one: a
 * transaction returns nothing, and its conditions held). A key change is one pair whose `after`
 * has another key, so its undo is one transaction over both keys (journal/undo.ts).
 */
function undoPairs(t: ItemTarget, entries: Entry[]): JournalPair[] {
  const pairs: JournalPair[] = [];
  for (const { change, plan, result, stored } of entries) {
    if (result.status !== 'written' || plan.kind === 'none') continue;
    const { seen, desired } = change;
    if (seen && plan.kind !== 'create') {
      const after = plan.kind === 'update' || plan.kind === 'key-change' ? (stored ?? desired) : null;
      const before = plan.kind === 'update' && stored && desired ? beforeUpdate(stored, seen, desired) : seen;
      pairs.push({ key: keyOf(seen, t.info.keys), before, after });
    }
    if (desired && plan.kind === 'create')
      pairs.push({ key: keyOf(desired, t.info.keys), before: null, after: stored ?? desired });
  }
  return pairs;
}

/**
 * What each change left in the table: the stored item where it was written (returned by a
 * single write or read back after a transaction; the planned one when neither was possible),
 * nothing under a deleted or moved key, and the stored item where a condition failed.
 */
function writtenItems(t: ItemTarget, entries: Entry[]): WrittenItem[] {
  const out: WrittenItem[] = [];
  for (const { change, plan, result, stored } of entries) {
    const seenKey = change.seen ? keyOf(change.seen, t.info.keys) : undefined;
    if (result.status === 'conflict') {
      const key = seenKey ?? (change.desired ? keyOf(change.desired, t.info.keys) : undefined);
      if (key && plan.kind !== 'key-change') out.push({ key, item: result.current ?? null, isRefresh: true });
      continue;
    }
    if (result.status !== 'written' || plan.kind === 'none') continue;
    if (seenKey && (plan.kind === 'delete' || plan.kind === 'key-change'))
      out.push({ key: seenKey, item: null });
    if (change.desired)
      out.push({
        key: keyOf(change.desired, t.info.keys),
        item: stored !== undefined ? stored : change.desired,
      });
  }
  return out;
}

/** A key change on its own: one transaction, whose token a retry may reuse. */
export async function commitOne(t: ItemTarget, planned: PlannedChange, token?: string): Promise<void> {
  const [batch] = splitTransactions([planned.actions], token ?? newRequestToken());
  if (!batch) return;
  const reasons = await sendBatch(t, batch);
  if (reasons === null) return;
  const index = reasons.findIndex((r) => r.Code !== undefined && r.Code !== 'None');
  const failed = reasons[index];
  if (failed?.Code === 'ConditionalCheckFailed') {
    // Action 0 deletes the old item, action 1 puts the new one: say which condition failed.
    const message =
      index === 1
        ? 'An item with the new key already exists, so the key was not changed. The stored item is shown.'
        : conflictMessage('key-change');
    const details = {
      current: storedItem(failed.Item),
      kind: 'key-change',
      action: index === 1 ? 'put' : 'delete',
    };
    throw new AppFailure(CONDITIONAL_FAILED, message, false, details);
  }
  throw new AppFailure(
    'TransactionCanceledException',
    cancellationMessage(failed?.Code, failed?.Message),
    true,
    { reasons },
  );
}
