import type { Item } from '../../../../shared/dynamo/attribute-value';
import { ownValue } from '../../../../shared/dynamo/proto-keys';
import type { KeySchema } from '../../../../shared/ipc/tables';

/** An item's table key as text, to match grid rows with staged changes. */
export function rowKeyText(item: Item, keys: KeySchema): string {
  return JSON.stringify([
    ownValue(item, keys.partitionKey.name) ?? null,
    keys.sortKey ? (ownValue(item, keys.sortKey.name) ?? null) : null,
  ]);
}

const rangeAnswers = new WeakMap<ReadonlySet<number>, Map<string, boolean>>();

/**
 * Whether every item of a collection is selected. Cheap when the selection is smaller; a large
 * one is checked once per selection (the grid asks again on every scroll frame).
 */
export function isRangeSelected(selected: ReadonlySet<number>, first: number, count: number): boolean {
  if (count === 0 || selected.size < count) return false;
  let answers = rangeAnswers.get(selected);
  if (!answers) rangeAnswers.set(selected, (answers = new Map<string, boolean>()));
  const range = `${first}+${count}`;
  let answer = answers.get(range);
  if (answer === undefined) {
    answer = true;
    for (let position = first; position < first + count && answer; position++)
      answer = selected.has(position);
    answers.set(range, answer);
  }
  return answer;
}
