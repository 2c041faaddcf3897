import type { Item } from '../../shared/dynamo/attribute-value';
import { itemsEqual } from '../../shared/dynamo/value-equality';
import { keyOf } from '../../shared/dynamo/validate-item';
import { planChange } from '../../shared/dynamo/write-plan';
import { AppFailure } from '../../shared/errors';
import type { JournalEntry, UndoItem, UndoReport } from '../../shared/ipc/journal';
import type { WrittenItem } from '../resultsets/types';
import type { OperationOutcome, OperationRun } from '../core/operations';
import { consistentReader, type ItemTarget } from '../dynamo/items/item-access';
import { getItem } from '../dynamo/items/single-item';
import { withBackoff } from '../core/retry';
import { assertWritable } from '../dynamo/writes/guards';
import { sendRequest } from '../dynamo/writes/sdk-requests';
import { sendWrite } from '../dynamo/writes/send-write';
import { CONDITIONAL_FAILED, itemRefusal } from '../dynamo/writes/write-errors';
import { journalPairs, recordUndo, type JournalPair } from './journal-files';
import { announceWrites, keepForUndo } from './keep';
import { laterEntries, type LaterEntry } from './later-entries';

const CONCURRENCY = 8;
const MAX_LISTED = 1000;
const PROGRESS_EVERY_MS = 250;

function same(a: Item | null, b: Item | null): boolean {
  return a === null || b === null ? a === b : itemsEqual(a, b);
}

interface Refusal {
  type: 'conflict' | 'failed';
  current?: Item | null;
  code: string;
  message: string;
}
/** `vacated`: a key change was undone, so nothing is stored under the key it had moved to. */
type Outcome = { type: 'restored'; vacated?: Item } | { type: 'already' } | Refusal;

const CHANGED_SINCE =
  'Changed since this write (by someone or something else), so undo left it as it is. What is stored now is shown next to what the write left.';

const NOT_CONFIRMED =
  'Undo wrote this item back, but reading it again found something else stored, so it is not counted as restored. What is stored now is shown.';

function readConsistently(t: ItemTarget, key: Item, signal: AbortSignal): Promise<Item | null> {
  return withBackoff(() => getItem(t, key, true, signal), { signal });
}

/**
 * Counts an item restored only once a consistent read finds exactly the "before" stored: the
 * report says what DynamoDB holds, never what a write's answer (or a lost one) suggested.
 */
async function confirmed(t: ItemTarget, pair: JournalPair, signal: AbortSignal): Promise<Outcome> {
  const stored = await readConsistently(t, pair.key, signal);
  if (same(stored, pair.before)) return { type: 'restored' };
  return { type: 'failed', current: stored, code: 'NotRestored', message: NOT_CONFIRMED };
}

async function isStored(t: ItemTarget, pair: JournalPair, signal: AbortSignal): Promise<boolean> {
  try {
    return same(await readConsistently(t, pair.key, signal), pair.before);
  } catch {
    return false;
  }
}

/**
 * Puts one item back only while it is exactly what the journalled write left. A consistent read
 * compares the whole item (a condition cannot say "and no other attribute"), and the write is
 * conditioned on every attribute the write left, so a change landing between the read and the
 * write fails the condition instead of being overwritten. An item that already holds what undo
 * restores counts as restored, so an undo can be run again after a cancel or a failure; that,
 * too, is what a consistent read found, never assumed from the journal line alone.
 */
async function undoOne(t: ItemTarget, pair: JournalPair, signal: AbortSignal): Promise<Outcome> {
  const movedTo = pair.after ? keyOf(pair.after, t.info.keys) : undefined;
  if (movedTo && !itemsEqual(movedTo, pair.key)) return undoMove(t, pair, movedTo, signal);
  const current = await readConsistently(t, pair.key, signal);
  if (same(current, pair.before)) return { type: 'already' };
  if (!same(current, pair.after))
    return { type: 'conflict', current, code: CONDITIONAL_FAILED, message: CHANGED_SINCE };
  const plan = planChange(
    { table: t.info.name, keys: t.info.keys },
    { seen: pair.after, desired: pair.before },
  );
  if (!plan.request) return { type: 'already' };
  const request = plan.request;
  try {
    // A retry whose first attempt landed fails the condition on `after`; sendWrite recognises
    // our own attempt when the stored item is already `before`, and the read below confirms it.
    await withBackoff(() => sendWrite(t.client, request, plan.kind, { desired: pair.before, signal }), {
      signal,
    });
    return await confirmed(t, pair, signal);
  } catch (error) {
    if (!(error instanceof AppFailure) || error.code !== CONDITIONAL_FAILED) {
      // Every answer lost (the SDK's five attempts) does not mean nothing landed: look.
      if (signal.aborted || !(await isStored(t, pair, signal))) throw error;
      return { type: 'restored' };
    }
    const stored = (error.details?.current as Item | null | undefined) ?? null;
    return { type: 'conflict', current: stored, code: CONDITIONAL_FAILED, message: CHANGED_SINCE };
  }
}

/**
 * Undoes a key change (the item moved from `pair.key` to `movedTo`) as one transaction: delete
 * the moved item only while it is exactly what the change left, and put the old one back only
 * while its key is free. Either condition failing cancels both, so a change made since (before
 * the read or between read and write) leaves nothing half undone.
 */
async function undoMove(
  t: ItemTarget,
  pair: JournalPair,
  movedTo: Item,
  signal: AbortSignal,
): Promise<Outcome> {
  const read = (key: Item) => readConsistently(t, key, signal);
  const [atOld, atNew] = await Promise.all([read(pair.key), read(movedTo)]);
  if (same(atOld, pair.before) && atNew === null) return { type: 'already' };
  if (atOld !== null || !same(atNew, pair.after))
    return { type: 'conflict', current: atOld ?? atNew, code: CONDITIONAL_FAILED, message: CHANGED_SINCE };
  const plan = planChange(
    { table: t.info.name, keys: t.info.keys },
    { seen: pair.after, desired: pair.before },
  );
  const request = plan.request;
  if (!request) return { type: 'already' };
  try {
    // The transaction's ClientRequestToken makes a retry of a lost answer idempotent.
    await withBackoff(() => sendRequest(t.client, request, signal), { signal });
    const [backOld, backNew] = await Promise.all([read(pair.key), read(movedTo)]);
    if (same(backOld, pair.before) && backNew === null) return { type: 'restored', vacated: movedTo };
    return { type: 'failed', current: backOld, code: 'NotRestored', message: NOT_CONFIRMED };
  } catch (error) {
    if ((error as { name?: string }).name !== 'TransactionCanceledException') throw error;
    const current = await read(movedTo).catch(() => undefined);
    return { type: 'conflict', current, code: CONDITIONAL_FAILED, message: CHANGED_SINCE };
  }
}

const UNDO_OF = /^(Undo|Redo) of "(.*)"$/s;

/**
 * The words of an undo's own entry: `Undo of "…"`, and undoing that is a redo (`Redo of "…"`),
 * whose undo is an undo again, rather than quotes nested one level deeper each time.
 */
export function undoReason(entry: Pick<JournalEntry, 'action' | 'reason'>): string {
  const undoOf = entry.action === 'undo' ? UNDO_OF.exec(entry.reason) : null;
  if (!undoOf) return `Undo of "${entry.reason}"`;
  return `${undoOf[1] === 'Undo' ? 'Redo' : 'Undo'} of "${undoOf[2]}"`;
}

function changedByLater(later: LaterEntry): string {
  return `Changed since by a later write of yours (${later.reason}, ${later.source}, ${later.at}), so undo left it as it is. Undo that write first, then this one.`;
}

/** Checks in main, before the operation starts, that the connection may write; returns the work. */
export function prepareUndo(dataDir: string, t: ItemTarget, connectionId: string, entry: JournalEntry) {
  assertWritable(t.connection);
  return (run: OperationRun) => runUndo(dataDir, t, connectionId, entry, run);
}

async function runUndo(
  dataDir: string,
  t: ItemTarget,
  connectionId: string,
  entry: JournalEntry,
  run: OperationRun,
): Promise<OperationOutcome<'journal:undo'>> {
  const report: UndoReport = { restored: 0, alreadyRestored: 0, conflicts: 0, failed: 0, items: [] };
  const progress = () => {
    const done = report.restored + report.conflicts + report.failed;
    return {
      items: done,
      pages: 0,
      consumedCapacity: 0,
      fraction: entry.count > 0 ? Math.min(1, done / entry.count) : 1,
      message: `${report.restored} restored, ${report.conflicts} changed since, ${report.failed} failed`,
    };
  };
  const list = (pair: JournalPair, outcome: Refusal, laterEntry?: LaterEntry): void => {
    if (report.items.length >= MAX_LISTED) return;
    const item: UndoItem = {
      key: pair.key,
      status: outcome.type,
      code: outcome.code,
      message: laterEntry ? changedByLater(laterEntry) : outcome.message,
      written: pair.after,
      before: pair.before,
      ...(outcome.current !== undefined ? { current: outcome.current } : {}),
      ...(laterEntry ? { laterEntry } : {}),
    };
    report.items.push(item);
  };
  const laterOf = laterEntries(dataDir, connectionId, entry, t.info.keys, consistentReader(t.client));
  // The undo's own writes are journaled in turn (what it found, what it put back), so it can be
  // undone: that undo is a redo, and says so.
  const journal = t.journal('undo', undoReason(entry));
  const undone: JournalPair[] = [];
  const one = async (pair: JournalPair, written: WrittenItem[]): Promise<void> => {
    let outcome: Outcome;
    // Noted before undo writes (kill-safe): what it finds is what the write left, and it puts
    // back the before; a key change's undo is told by the key it moved the item to.
    const intent = {
      key: pair.after ? keyOf(pair.after, t.info.keys) : pair.key,
      before: pair.after,
      after: pair.before,
    };
    try {
      await announceWrites(journal, [intent]);
      outcome = await undoOne(t, pair, run.signal);
    } catch (error) {
      const appError = itemRefusal(error, run.signal);
      outcome = { type: 'failed', code: appError.code, message: appError.message };
    }
    // Refused or nothing to write: no undo write landed. A failure may have landed: read at the end.
    if (outcome.type === 'already' || outcome.type === 'conflict')
      await journal.refuse(intent.key).catch(() => undefined);
    if (outcome.type === 'restored') {
      undone.push({ key: outcome.vacated ?? pair.key, before: pair.after, after: pair.before });
      report.restored++;
      if (outcome.vacated) written.push({ key: outcome.vacated, item: null });
      written.push({ key: pair.key, item: pair.before });
      return;
    }
    if (outcome.type === 'already') {
      report.restored++;
      report.alreadyRestored++;
      return;
    }
    if (outcome.type === 'conflict') report.conflicts++;
    else report.failed++;
    // Rows showing the item show what is stored, as after any refused write.
    if (outcome.current !== undefined)
      written.push({ key: pair.key, item: outcome.current, isRefresh: true });
    const later =
      outcome.type === 'conflict' && report.items.length < MAX_LISTED ? await laterOf(pair.key) : undefined;
    list(pair, outcome, later);
  };
  let lastEmit = Date.now();
  try {
    for await (const chunk of journalPairs(dataDir, connectionId, entry.id)) {
      for (let i = 0; i < chunk.length && !run.signal.aborted; i += CONCURRENCY) {
        const written: WrittenItem[] = [];
        try {
          await Promise.all(chunk.slice(i, i + CONCURRENCY).map((pair) => one(pair, written)));
        } finally {
          await t.record(written);
          // A failed append shows when the entry is finished, as the report's journalProblem.
          await journal.add(undone.splice(0)).catch(() => undefined);
        }
        if (Date.now() - lastEmit >= PROGRESS_EVERY_MS) {
          lastEmit = Date.now();
          run.emit({ type: 'progress', progress: progress() });
        }
      }
      if (run.signal.aborted) break;
    }
  } finally {
    Object.assign(report, await keepForUndo(journal, undone.splice(0)));
    const { restored, conflicts, failed } = report;
    // An undo that found everything already put back wrote nothing and kept no entry: the entry
    // of the undo that did the writing still redoes them.
    const journalId =
      report.journalId ?? (restored === report.alreadyRestored ? entry.lastUndo?.journalId : undefined);
    await recordUndo(dataDir, connectionId, entry, {
      at: new Date().toISOString(),
      restored,
      conflicts,
      failed,
      ...(run.signal.aborted ? { isCancelled: true } : {}),
      ...(journalId ? { journalId } : {}),
    }).catch(() => undefined);
  }
  return { progress: progress(), value: report };
}
