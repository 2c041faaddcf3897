import type { KeySchema } from '../../../../shared/ipc/tables';
import { Select } from '../../../ui/select';
import { TextInput } from '../../../ui/text-input';
import type { BuilderPartProps, SortKeyOp } from '../builder-state';

const SORT_OPS: SortKeyOp[] = ['', '=', '<', '<=', '>', '>=', 'begins_with', 'between'];

/** A Query's key condition: the partition key's value and an optional sort key comparison. */
export function KeyFields({ keys, state, set }: BuilderPartProps & { keys: KeySchema }) {
  return (
    <>
      <label className="qb-key">
        <span className="qb-key-name">{keys.partitionKey.name} =</span>
        <TextInput
          label={`Partition key ${keys.partitionKey.name}`}
          value={state.partitionKey}
          onChange={(partitionKey) => set({ partitionKey })}
          placeholder={keys.partitionKey.type === 'N' ? 'number' : 'value'}
        />
      </label>
      {keys.sortKey ? (
        <label className="qb-key">
          <span className="qb-key-name">{keys.sortKey.name}</span>
          <Select
            className="qb-sort-op"
            label="Sort key condition"
            value={state.sortOp}
            options={SORT_OPS}
            labelOf={(op) => (op === '' ? 'any' : op.replace('_', ' '))}
            onChange={(sortOp) => set({ sortOp })}
          />
          {state.sortOp ? (
            <TextInput
              label={`Sort key ${keys.sortKey.name}`}
              value={state.sortValue}
              onChange={(sortValue) => set({ sortValue })}
            />
          ) : null}
          {state.sortOp === 'between' ? (
            <TextInput
              label="Sort key upper bound"
              value={state.sortValue2}
              onChange={(sortValue2) => set({ sortValue2 })}
            />
          ) : null}
        </label>
      ) : null}
    </>
  );
}
