import {
  keyPartsOf,
  MAX_KEY_ATTRIBUTES,
  partitionAttributes,
  sortAttributes,
} from '../../../../shared/dynamo/key-model';
import { typeLabel } from '../../../../shared/dynamo/attribute-value';
import {
  keyTypeSchema,
  type GlobalIndexDefinition,
  type KeyAttribute,
} from '../../../../shared/dynamo/table-definition';
import { indexKeyField, problemAt, type FieldProblem } from '../../../../shared/dynamo/table-validation';
import { Button } from '../../../ui/button';
import { FieldError } from '../../../ui/field';
import { Select } from '../../../ui/select';
import { TextInput } from '../../../ui/text-input';

type Kind = 'partition' | 'sort';

/** The index with new partition and sort attributes, the old key fields dropped first. */
function withKey(index: GlobalIndexDefinition, partition: KeyAttribute[], sort: KeyAttribute[]) {
  const { partitionKey: _p, sortKey: _s, morePartitionKeys: _mp, moreSortKeys: _ms, ...rest } = index;
  return { ...rest, ...keyPartsOf(partition, sort) };
}

/**
 * A global index's key: its partition attributes and its sort attributes, each an ordered list
 * (multi-attribute keys: up to four of each), with add, remove and move up/down. The order is
 * the KeySchema order, which is the order a Query must name sort attributes in.
 */
export function IndexKeyFields({
  title,
  value,
  onChange,
  problems,
  field,
}: {
  title: string;
  value: GlobalIndexDefinition;
  onChange(value: GlobalIndexDefinition): void;
  problems: FieldProblem[];
  field: string;
}) {
  const partition = partitionAttributes(value);
  const sort = sortAttributes(value);
  const set = (kind: Kind, list: KeyAttribute[]): void =>
    onChange(kind === 'partition' ? withKey(value, list, sort) : withKey(value, partition, list));
  return (
    <div className="index-key-fields">
      <AttributeList
        kind="partition"
        title={title}
        attributes={partition}
        onChange={(list) => set('partition', list)}
        problems={problems}
        field={field}
      />
      <AttributeList
        kind="sort"
        title={title}
        attributes={sort}
        onChange={(list) => set('sort', list)}
        problems={problems}
        field={field}
      />
    </div>
  );
}

function AttributeList({
  kind,
  title,
  attributes,
  onChange,
  problems,
  field,
}: {
  kind: Kind;
  title: string;
  attributes: KeyAttribute[];
  onChange(list: KeyAttribute[]): void;
  problems: FieldProblem[];
  field: string;
}) {
  const heading = kind === 'partition' ? 'Partition key' : 'Sort key';
  const noun = `${kind} attribute`;
  // A partition key needs one attribute; a sort key may have none.
  const fewest = kind === 'partition' ? 1 : 0;
  const headingId = `${field}-${kind}-heading`.replace(/[^A-Za-z0-9_-]/g, '-');
  const move = (from: number, to: number): void => {
    const list = [...attributes];
    const [moved] = list.splice(from, 1);
    if (moved) list.splice(to, 0, moved);
    onChange(list);
  };
  const listError = problemAt(problems, indexKeyField(field, kind, MAX_KEY_ATTRIBUTES));
  return (
    <div className="key-fields index-key-list" role="group" aria-labelledby={headingId}>
      <span className="field-label" id={headingId}>
        {heading}{' '}
        <span className="muted">
          {attributes.length === 0
            ? '· none'
            : `· ${attributes.length} of up to ${MAX_KEY_ATTRIBUTES} attributes`}
        </span>
      </span>
      <ol className="index-key-rows">
        {attributes.map((attribute, i) => {
          const at = indexKeyField(field, kind, i);
          const error = problemAt(problems, at);
          const label = `${title}: ${noun} ${i + 1}`;
          return (
            <li key={i} className={`index-key-row${error ? ' has-error' : ''}`}>
              <div className="key-fields-row">
                <span className="index-key-position" aria-hidden="true">
                  {i + 1}
                </span>
                <TextInput
                  label={`${label} name`}
                  value={attribute.name}
                  placeholder="attribute name"
                  aria-invalid={problemAt(problems, `${at}.name`) ? true : undefined}
                  onChange={(name) => onChange(attributes.map((a, j) => (j === i ? { ...a, name } : a)))}
                />
                <Select
                  label={`${label} type`}
                  value={attribute.type}
                  options={keyTypeSchema.options}
                  labelOf={typeLabel}
                  onChange={(type) => onChange(attributes.map((a, j) => (j === i ? { ...a, type } : a)))}
                />
                <Button
                  size="sm"
                  variant="ghost"
                  className="index-key-button"
                  aria-label={`Move ${label} up`}
                  title="Move up"
                  disabled={i === 0}
                  onClick={() => move(i, i - 1)}
                >
                  ↑
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="index-key-button"
                  aria-label={`Move ${label} down`}
                  title="Move down"
                  disabled={i === attributes.length - 1}
                  onClick={() => move(i, i + 1)}
                >
                  ↓
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="index-key-button"
                  aria-label={`Remove ${label}`}
                  title="Remove"
                  disabled={attributes.length <= fewest}
                  onClick={() => onChange(attributes.filter((_, j) => j !== i))}
                >
                  ×
                </Button>
              </div>
              <FieldError message={error} />
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          size="sm"
          aria-label={`${title}: add ${noun}`}
          disabled={attributes.length >= MAX_KEY_ATTRIBUTES}
          title={
            attributes.length >= MAX_KEY_ATTRIBUTES
              ? `DynamoDB allows at most ${MAX_KEY_ATTRIBUTES} ${noun}s in an index key.`
              : undefined
          }
          onClick={() => onChange([...attributes, { name: '', type: 'S' }])}
        >
          Add {noun}
        </Button>
      </div>
      <FieldError message={listError} />
    </div>
  );
}
