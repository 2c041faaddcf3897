import type { FilterCondition } from '../../../shared/ipc/query';
import type { ItemFilter } from '../../../shared/schema/click-through';
import type { IndexInfo, KeySchema } from '../../../shared/ipc/tables';
import { initialBuilder, toReadSpec, type BuilderState, type ConditionDraft } from '../query/builder-state';
import { rememberBuilder } from '../query/builder-memory';
import { itemsKey, useItemsStore } from '../items/store';
import { tableKeyIn, useWorkspaceStore } from '../workspace/store';

/** A name as the builder reads paths: backticks around one that holds a dot or a bracket. */
function builderName(name: string): string | undefined {
  if (name.includes('`')) return undefined;
  return /[.[\]]/.test(name) ? `\`${name}\`` : name;
}

let drafts = 0;

function draftOf(condition: FilterCondition): ConditionDraft | undefined {
  const names = condition.path.map((step, i) => {
    if (typeof step === 'number') return `[${step}]`;
    const name = builderName(step);
    return name === undefined ? undefined : `${i > 0 ? '.' : ''}${name}`;
  });
  if (names.some((n) => n === undefined)) return undefined;
  const value = condition.value;
  const text = (v: typeof value) =>
    !v ? '' : 'S' in v ? v.S : 'N' in v ? v.N : 'BOOL' in v ? String(v.BOOL) : '';
  drafts += 1;
  return {
    id: `schema-${drafts}`,
    path: names.join(''),
    op: condition.op,
    // attribute_type's type is any DynamoDB type; the draft's field carries it as the builder's own menu does.
    type: (condition.type ??
      (value && 'N' in value ? 'N' : value && 'BOOL' in value ? 'BOOL' : 'S')) as ConditionDraft['type'],
    value: text(value),
    value2: text(condition.value2),
    sizeOp: '>',
  };
}

export interface ItemsTarget {
  connectionId: string;
  table: string;
  keys: KeySchema;
  indexes: IndexInfo[];
}

/**
 * Shows the Items tab with a Scan filtered on the conditions, as the builder's own form (so the
 * user sees and can change what ran), read until 100 items match.
 */
export function showInItems(
  target: ItemsTarget,
  filter: ItemFilter,
  index: string | undefined,
): string | undefined {
  const parts = filter.conditions.map(draftOf);
  if (parts.some((d) => d === undefined)) return 'The builder cannot write a name with a backtick.';
  const builder: BuilderState = {
    ...initialBuilder,
    mode: 'scan',
    index: index ?? '',
    join: filter.join,
    conditions: parts as ConditionDraft[],
    maxItems: '100',
    untilMatches: true,
  };
  const read = toReadSpec(builder, target.keys, target.indexes, []);
  if ('errors' in read) return Object.values(read.errors)[0] ?? 'The filter could not be built.';
  rememberBuilder(itemsKey(target.connectionId, target.table), builder);
  const { connectionId, table, keys } = target;
  void useItemsStore.getState().run({ connectionId, table, keys, read });
  useWorkspaceStore.getState().setTableView(tableKeyIn(target.connectionId, target.table), 'items');
  return undefined;
}
