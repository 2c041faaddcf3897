import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, Item } from '../../../shared/dynamo/attribute-value';
import type { EntityView, KeyCondition, TableInfo } from '../../../shared/sql/catalog';
import { seenPaths } from '../../dynamo/attribute-paths';

/**
 * An item in either form: the tagged one (wire reads) or the SDK's (a copy, the fix's dry run).
 * Detection reads only S values and compares key values whole, which the two forms share.
 */
type SampledItem = Item | Record<string, SdkValue>;
type SampledValue = AttributeValue | SdkValue;

const PREFIX = /^([A-Za-z][A-Za-z0-9_-]*)#/;
const TOKEN = /^[A-Z][A-Z0-9_]*$/;
export const TYPE_ATTRIBUTES = [
  'entity',
  'entityType',
  'type',
  '_type',
  '__typename',
  'Type',
  'EntityType',
  'kind',
];

interface Group {
  label: string;
  conditions: KeyCondition[];
  /** Name from the key when no type attribute names the entity. */
  keyName: string;
  items: SampledItem[];
}

export function pluralName(word: string): string {
  const base = word
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .toLowerCase()
    .replace(/^_+|_+$/g, '');
  if (base === '') return 'items';
  const name = /^[a-z_]/.test(base) ? base : `e_${base}`;
  if (/(s|x|z|ch|sh)$/.test(name)) return `${name}es`;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

const text = (v: SampledValue | undefined): string | undefined =>
  v !== undefined && 'S' in v ? v.S : undefined;

export type EntityGroupKey = Omit<Group, 'items'>;

/**
 * The entity group of one item by its keys: the sort key's prefix (`ORDER#o1` → ORDER), a constant
 * sort key under a partition key prefix (`USER#u1` + `PROFILE`), else the partition key's prefix.
 * One item at a time, so a full-table scan (the Schema view) groups exactly as SQL's views do.
 */
export function entityGroupOf(
  item: SampledItem,
  pk: string,
  sk: string | undefined,
): EntityGroupKey | undefined {
  const label = entityLabelOf(item, pk, sk);
  return label === undefined ? undefined : entityGroupOfLabel(label, pk, sk);
}

/**
 * Only the label of entityGroupOf (`sk:ORDER`, `const:USER:PROFILE`, `pk:USER`): no objects per
 * item, for a reader that keeps its groups by label and builds each group once.
 */
export function entityLabelOf(item: SampledItem, pk: string, sk: string | undefined): string | undefined {
  return new EntityLabels(pk, sk).of(item);
}

/** PREFIX's word for a stream of key values, remembering the last: keys mostly share it. */
class KeyPrefixes {
  private cut = '';
  private word = '';

  of(s: string | undefined): string | undefined {
    if (!s) return undefined;
    // The word runs to the first `#`, so a value starting with the last `WORD#` has that word.
    if (this.cut !== '' && s.startsWith(this.cut)) return this.word;
    const match = PREFIX.exec(s);
    if (!match) return undefined;
    this.cut = match[0];
    this.word = match[1] as string;
    return this.word;
  }
}

/**
 * entityLabelOf over a stream of items (a full-table scan): the same labels, without a regex
 * and a new label string per item.
 */
export class EntityLabels {
  private readonly pkPrefixes = new KeyPrefixes();
  private readonly skPrefixes = new KeyPrefixes();
  private readonly skLabels = new Map<string, string>();
  private readonly pkLabels = new Map<string, string>();

  constructor(
    private readonly pk: string,
    private readonly sk: string | undefined,
  ) {}

  of(item: SampledItem): string | undefined {
    const sk = this.sk;
    const skValue = sk ? text(ownItemValue(item, sk)) : undefined;
    const skPrefix = this.skPrefixes.of(skValue);
    if (sk && skPrefix) return labelIn(this.skLabels, 'sk:', skPrefix);
    const pkPrefix = this.pkPrefixes.of(text(ownItemValue(item, this.pk)));
    if (sk && skValue && TOKEN.test(skValue) && pkPrefix) return `const:${pkPrefix}:${skValue}`;
    if (pkPrefix) return labelIn(this.pkLabels, 'pk:', pkPrefix);
    return undefined;
  }
}

function labelIn(labels: Map<string, string>, kind: string, word: string): string {
  let label = labels.get(word);
  if (label === undefined) labels.set(word, (label = `${kind}${word}`));
  return label;
}

/** The group entityLabelOf named (prefixes and tokens hold no `:`, so the label splits back). */
export function entityGroupOfLabel(label: string, pk: string, sk: string | undefined): EntityGroupKey {
  const [kind, first = '', second = ''] = label.split(':');
  if (kind === 'sk')
    return {
      label,
      keyName: first,
      conditions: [{ attribute: sk as string, op: 'begins_with', values: [{ S: `${first}#` }] }],
    };
  if (kind === 'const')
    return {
      label,
      keyName: second,
      conditions: [
        { attribute: pk, op: 'begins_with', values: [{ S: `${first}#` }] },
        { attribute: sk as string, op: '=', values: [{ S: second }] },
      ],
    };
  return {
    label,
    keyName: first,
    conditions: [{ attribute: pk, op: 'begins_with', values: [{ S: `${first}#` }] }],
  };
}

const ownItemValue = (item: SampledItem, name: string): SampledValue | undefined =>
  Object.prototype.hasOwnProperty.call(item, name) ? item[name] : undefined;

/** A group as counted so far, with the type attribute's value when every item agreed on one. */
export interface CountedGroup extends EntityGroupKey {
  count: number;
  typeName?: string;
}

/**
 * Names for entity groups, largest first: the agreed type attribute's value (User → users),
 * else the key word; a constant sort key alone under its partition prefix names the prefix
 * (USER#…/PROFILE → users). Names are unique (orders, orders_2).
 */
export function nameEntityGroups<G extends CountedGroup>(groups: readonly G[]): { group: G; name: string }[] {
  const constantsPerPrefix = new Map<string, number>();
  for (const g of groups)
    if (g.label.startsWith('const:'))
      constantsPerPrefix.set(
        g.label.split(':')[1]!,
        (constantsPerPrefix.get(g.label.split(':')[1]!) ?? 0) + 1,
      );
  const used = new Set<string>();
  const out: { group: G; name: string }[] = [];
  for (const g of [...groups].sort((a, b) => b.count - a.count)) {
    let name = pluralName(
      g.typeName ??
        (g.label.startsWith('const:') && constantsPerPrefix.get(g.label.split(':')[1]!) === 1
          ? g.label.split(':')[1]!
          : g.keyName),
    );
    for (let n = 2; used.has(name); n++) name = `${name.replace(/_\d+$/, '')}_${n}`;
    used.add(name);
    out.push({ group: g, name });
  }
  return out;
}

/**
 * Entity views of a single-table design, from a sample of its items. An item's entity is the
 * prefix of its sort key (`ORDER#o1` → orders); a sort key that is a constant word
 * (`PROFILE`) names the entity together with the partition key prefix (`USER#u1` + `PROFILE`);
 * without either, the partition key prefix. A type attribute (entity, type, __typename...)
 * that agrees across a group only supplies the view's name (User → users); the view itself is
 * always the key condition, so the planner can push it down.
 */
export function detectEntityViews(table: TableInfo, sample: SampledItem[]): EntityView[] {
  const pk = table.keys.partitionKey.name;
  const sk = table.keys.sortKey?.name;
  const groups = new Map<string, Group>();
  for (const item of sample) {
    const group = entityGroupOf(item, pk, sk);
    if (!group) continue;
    const existing = groups.get(group.label) ?? { ...group, items: [] };
    existing.items.push(item);
    groups.set(group.label, existing);
  }
  if (groups.size < 2) return [];
  const counted = [...groups.values()].map((g) => ({
    ...g,
    count: g.items.length,
    typeName: typeName(g.items),
  }));
  return nameEntityGroups(counted).map(({ group, name }) => ({
    name,
    table: table.name,
    conditions: group.conditions,
    source: 'detected' as const,
    share: group.count / sample.length,
  }));
}

function typeName(items: SampledItem[]): string | undefined {
  for (const attribute of TYPE_ATTRIBUTES) {
    const values = new Set(items.map((i) => text(ownItemValue(i, attribute))));
    if (values.size === 1) {
      const [only] = values;
      if (only && /^[A-Za-z][A-Za-z0-9_ -]{0,40}$/.test(only)) return only;
    }
  }
  return undefined;
}

/** Attribute paths in the sample (maps two levels deep), most seen first, for the editor's autocomplete. */
export function attributePaths(items: Item[], limit = 200): string[] {
  const quote = (name: string): string =>
    /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
  return seenPaths(items)
    .sort((a, b) => b.count - a.count)
    .slice(0, limit)
    .map((path) => `${path.names.map(quote).join('.')}${path.isListElement ? '[0]' : ''}`);
}

/**
 * Items per index partition key value. A Scan returns the table's partitions whole, but an
 * index's partitions are spread over the table, so the sample's ratio is scaled to the table.
 */
export function indexItemsPerPartition(table: TableInfo, sample: SampledItem[]): Record<string, number> {
  const out: Record<string, number> = {};
  if (sample.length === 0) return out;
  const scale = Math.max(1, table.itemCount / sample.length);
  for (const index of table.indexes.filter((i) => i.kind === 'GSI')) {
    const values = sample
      .map((i) => ownItemValue(i, index.keys.partitionKey.name))
      .filter((v) => v !== undefined);
    if (values.length === 0) continue;
    const distinct = new Set(values.map((v) => JSON.stringify(v))).size;
    out[index.name] = (values.length / distinct) * scale;
  }
  return out;
}

/** Items per partition key value in the sample: how big a Query on one partition tends to be. */
export function itemsPerPartition(table: TableInfo, sample: SampledItem[]): number | undefined {
  if (sample.length === 0) return undefined;
  const pk = table.keys.partitionKey.name;
  const distinct = new Set(sample.map((i) => JSON.stringify(ownItemValue(i, pk) ?? null)));
  return sample.length / distinct.size;
}
