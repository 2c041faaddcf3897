import type { Item } from '../../shared/dynamo/attribute-value';
import type { ExportChange } from './types';
import { encodeItem, type ByteWriter } from './item-codec';
import { itemKeyText } from './item-key';
import type { ResultSet } from './result-set-core';
import { encodeExportLines } from './wire-encoder';

/** Adds the items of whole lines of a DynamoDB-JSON export data file, encoded from their bytes. */
export function appendExportLines(set: ResultSet, body: Uint8Array): number {
  const from = set.arena.count;
  encodeExportLines(
    Buffer.from(body.buffer, body.byteOffset, body.byteLength),
    { arena: set.arena, names: set.names },
    (names) => {
      for (const nameId of names) set.counts[nameId] = (set.counts[nameId] ?? 0) + 1;
    },
  );
  set.extendViews(from);
  return set.size;
}

function countNames(set: ResultSet, item: Item, by: 1 | -1): void {
  for (const name of Object.keys(item)) {
    const nameId = set.names.id(name);
    set.counts[nameId] = Math.max(0, (set.counts[nameId] ?? 0) + by);
  }
}

/**
 * Applies an incremental export's changes, in order, to the rows of its base: the item with the
 * change's key leaves, and its new image (if any: a delete has none) joins at the end. Exports
 * are opened before any view is built on them, so there are no views to keep in step.
 */
export function applyExportChanges(set: ResultSet, writer: ByteWriter, changes: ExportChange[]): number {
  const keys = set.meta.keyAttributes;
  for (const change of changes) {
    const keyText = itemKeyText(change.key, keys);
    const index = set.find(keyText, keys);
    if (index !== undefined) {
      countNames(set, set.item(index), -1);
      set.removed.add(index);
      set.forgetKey(keyText);
    }
    if (change.item) {
      writer.reset();
      encodeItem(change.item, set.names, writer);
      countNames(set, change.item, 1);
      set.arena.push(writer.buffer, writer.length);
    }
  }
  set.invalidateLiveRows();
  return set.size;
}
