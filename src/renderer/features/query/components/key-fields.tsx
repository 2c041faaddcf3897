import { partitionAttributes, sortAttributes } from '../../../../shared/dynamo/key-model';
import type { KeyAttributeInfo, KeySchema } from '../../../../shared/ipc/tables';
import { Select } from '../../../ui/select';
import { TextInput } from '../../../ui/text-input';
import type { BuilderPartProps, SortDraft, SortKeyOp } from '../builder-state';

const SORT_OPS: SortKeyOp[] = ['', '=', '<', '<=', '>', '>=', 'begins_with', 'between'];
const EMPTY: SortDraft = { op: '', value: '', value2: '' };

/** begins_with is for strings and binary: DynamoDB refuses it on a number. */
function opsFor(attribute: KeyAttributeInfo): SortKeyOp[] {
  return attribute.type === 'N' ? SORT_OPS.filter((op) => op !== 'begins_with') : SORT_OPS;
}

function SortField({
  attribute,
  draft,
  position,
  count,
  onChange,
}: {
  attribute: KeyAttributeInfo;
  draft: SortDraft;
  position: number;
  count: number;
  onChange(draft: SortDraft): void;
}) {
  // A single sort key keeps its old labels; a multi-attribute one names each attribute's place.
  const label = count === 1 ? 'Sort key' : `Sort attribute ${position + 1} of ${count}, ${attribute.name},`;
  return (
    <label className="qb-key">
      <span className="qb-key-name">{attribute.name}</span>
      <Select
        className="qb-sort-op"
        label={count === 1 ? 'Sort key condition' : `${label} condition`}
        value={draft.op}
        options={opsFor(attribute)}
        labelOf={(op) => (op === '' ? 'any' : op.replace('_', ' '))}
        onChange={(op) => onChange({ ...draft, op })}
      />
      {draft.op ? (
        <TextInput
          label={count === 1 ? `Sort key ${attribute.name}` : `${label} value`}
          value={draft.value}
          onChange={(value) => onChange({ ...draft, value })}
          placeholder={attribute.type === 'N' ? 'number' : 'value'}
        />
      ) : null}
      {draft.op === 'between' ? (
        <TextInput
          label={count === 1 ? 'Sort key upper bound' : `${label} upper bound`}
          value={draft.value2}
          onChange={(value2) => onChange({ ...draft, value2 })}
        />
      ) : null}
    </label>
  );
}

/**
 * A Query's key condition: a value for every partition attribute, and optional conditions on the
 * sort attributes, which DynamoDB reads left to right (= on all but the last one named).
 */
export function KeyFields({ keys, state, set }: BuilderPartProps & { keys: KeySchema }) {
  const partition = partitionAttributes(keys);
  const sort = sortAttributes(keys);
  const partitionText = (i: number): string =>
    i === 0 ? state.partitionKey : (state.morePartitionKeys[i - 1]?.value ?? '');
  const setPartition = (i: number, value: string): void => {
    if (i === 0) {
      set({ partitionKey: value });
      return;
    }
    const more = partition.slice(1).map((_, j) => ({ value: j === i - 1 ? value : partitionText(j + 1) }));
    set({ morePartitionKeys: more });
  };
  const sortDraft = (i: number): SortDraft =>
    i === 0
      ? { op: state.sortOp, value: state.sortValue, value2: state.sortValue2 }
      : (state.moreSortKeys[i - 1] ?? EMPTY);
  const setSort = (i: number, draft: SortDraft): void => {
    if (i === 0) {
      set({ sortOp: draft.op, sortValue: draft.value, sortValue2: draft.value2 });
      return;
    }
    set({ moreSortKeys: sort.slice(1).map((_, j) => (j === i - 1 ? draft : sortDraft(j + 1))) });
  };
  return (
    <>
      {partition.map((attribute, i) => (
        <label className="qb-key" key={`p${i}`}>
          <span className="qb-key-name">{attribute.name} =</span>
          <TextInput
            label={
              partition.length === 1
                ? `Partition key ${attribute.name}`
                : `Partition attribute ${i + 1} of ${partition.length}, ${attribute.name}`
            }
            value={partitionText(i)}
            onChange={(value) => setPartition(i, value)}
            placeholder={attribute.type === 'N' ? 'number' : 'value'}
          />
        </label>
      ))}
      {sort.map((attribute, i) => (
        <SortField
          key={`s${i}`}
          attribute={attribute}
          draft={sortDraft(i)}
          position={i}
          count={sort.length}
          onChange={(draft) => setSort(i, draft)}
        />
      ))}
    </>
  );
}
