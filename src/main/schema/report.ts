import { quoteName } from '../../shared/schema/schema-paths';
import { keyAdviceOf } from './key-advice';
import type {
  AttributeSchema,
  EntitySchema,
  SchemaBucket,
  SchemaReport,
  SchemaValueType,
} from '../../shared/ipc/schema';
import { nameEntityGroups } from '../sql/catalog/entity-detect';
import { TYPE_ATTRIBUTES } from '../sql/catalog/entity-detect';
import type { GroupState, SchemaAccumulator } from './accumulator';
import { EXACT_LIMIT, type PathStats } from './path-stats';
import { schemaWarnings } from './warnings';

/** Most common values are shown for paths with at most this many distinct values. */
const TOP_VALUES_WHEN_AT_MOST = 20;
const TOP_VALUES = 10;

export type ReportHead = Omit<
  SchemaReport,
  | 'entities'
  | 'attributes'
  | 'warnings'
  | 'maxItemBytes'
  | 'untrackedPaths'
  | 'untrackedEntityItems'
  | 'itemsScanned'
>;

function lengthLabel(bucket: number): string {
  if (bucket === 0) return '0';
  const lo = 2 ** (bucket - 1);
  const hi = 2 ** bucket - 1;
  return lo === hi ? String(lo) : `${lo}–${hi}`;
}

const compact = (n: number): string =>
  n >= 1e12
    ? `${n / 1e12}T`
    : n >= 1e9
      ? `${n / 1e9}G`
      : n >= 1e6
        ? `${n / 1e6}M`
        : n >= 1e3
          ? `${n / 1e3}k`
          : String(n);

function magnitudeLabel(k: number): string {
  if (k === 0) return '−1…1';
  const digits = Math.abs(k);
  const range = digits === 1 ? '1–9' : `${compact(10 ** (digits - 1))}–${compact(10 ** digits)}`;
  return k < 0 ? `−(${range})` : range;
}

function buckets(
  record: Record<string, number>,
  order: (k: string) => number,
  label: (k: string) => string,
): SchemaBucket[] | undefined {
  const keys = Object.keys(record).sort((a, b) => order(a) - order(b));
  if (keys.length === 0) return undefined;
  return keys.map((k) => ({ label: label(k), count: record[k] as number }));
}

function topValueOf(key: string): { type: SchemaValueType; value: string } {
  if (key.startsWith('BOOL')) return { type: 'BOOL', value: key.slice(4) };
  if (key === 'NULL') return { type: 'NULL', value: 'null' };
  return { type: key[0] as SchemaValueType, value: key.slice(1) };
}

export function attributeOf(p: PathStats, groupItems: number): AttributeSchema {
  const s = p.state;
  const distinct = p.distinctCount();
  const top =
    distinct.isExact && distinct.count <= TOP_VALUES_WHEN_AT_MOST ? p.topValues(TOP_VALUES) : undefined;
  const lengths: Record<string, number> = {};
  s.lengths.forEach((n, i) => {
    if (n) lengths[String(i)] = n;
  });
  return {
    path: s.path,
    items: s.items,
    share: groupItems > 0 ? s.items / groupItems : 0,
    values: s.values,
    types: { ...s.types },
    formats: { ...s.formats },
    strings: s.strings,
    ...(s.minLength !== undefined ? { length: { min: s.minLength, max: s.maxLength ?? s.minLength } } : {}),
    ...(s.strings > 0 ? { lengthHistogram: buckets(lengths, Number, (k) => lengthLabel(Number(k))) } : {}),
    ...(s.minNumber !== undefined
      ? {
          number: {
            min: s.minNumber,
            max: s.maxNumber ?? s.minNumber,
            count: s.numbers,
            integers: s.integers,
            epochSeconds: s.epochSeconds,
            epochMillis: s.epochMillis,
          },
          numberHistogram: buckets(s.magnitudes, Number, (k) => magnitudeLabel(Number(k))),
        }
      : {}),
    ...(Object.keys(s.years).length > 0 ? { yearHistogram: buckets(s.years, Number, (k) => k) } : {}),
    ...(s.minSetSize !== undefined
      ? { setSize: { min: s.minSetSize, max: s.maxSetSize ?? s.minSetSize } }
      : {}),
    ...(s.minListLength !== undefined
      ? { listLength: { min: s.minListLength, max: s.maxListLength ?? s.minListLength } }
      : {}),
    distinct,
    ...(top && top.length > 0
      ? { topValues: top.map(([key, n]) => ({ ...topValueOf(key), count: n })) }
      : {}),
  };
}

/** Paths in reading order: key attributes first, then by how many items have them, then by name. */
function attributesOf(
  paths: ReadonlyMap<string, PathStats>,
  items: number,
  keyNames: readonly string[],
): AttributeSchema[] {
  // Paths are written as the Schema view writes them (`"#day"`, `"reg.ion"`), key names as stored.
  const keyPaths = keyNames.map(quoteName);
  const rank = (path: string) => {
    const i = keyPaths.indexOf(path);
    return i < 0 ? keyPaths.length : i;
  };
  return [...paths.values()]
    .map((p) => attributeOf(p, items))
    .sort(
      (a, b) =>
        rank(a.path) - rank(b.path) || b.items - a.items || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
    );
}

function typeNameOf(state: GroupState): string | undefined {
  const votes = state.typeVotes ?? [];
  for (let i = 0; i < TYPE_ATTRIBUTES.length; i++) {
    const vote = votes[i];
    if (typeof vote === 'string' && /^[A-Za-z][A-Za-z0-9_ -]{0,40}$/.test(vote)) return vote;
  }
  return undefined;
}

function keyPatternsOf(state: GroupState): { pattern: string; count: number }[] {
  return [...state.keyPatterns]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([pattern, count]) => ({ pattern, count }));
}

function indexPatternsOf(state: GroupState): { index: string; pattern: string; count: number }[] {
  return (state.indexPatterns ?? [])
    .map(([key, count]) => {
      const cut = key.indexOf('\u0000');
      return { index: key.slice(0, cut), pattern: key.slice(cut + 1), count };
    })
    .sort((a, b) => (a.index < b.index ? -1 : a.index > b.index ? 1 : b.count - a.count));
}

export function buildSchemaReport(
  acc: SchemaAccumulator,
  head: ReportHead,
  keyNames: readonly string[],
): SchemaReport {
  const state = acc.toJSON();
  const groups = acc.groups();
  const stateByLabel = new Map(groups.entities.map((e) => [e.state.label, e]));
  let named: { label: string; name: string }[];
  if (head.entitySource.kind === 'attribute') {
    const attribute = head.entitySource.name;
    named = groups.entities.map((e) => ({
      label: e.state.label,
      name: e.state.label === 'attr:' ? `(no ${attribute})` : e.state.label.slice(5),
    }));
  } else {
    named = nameEntityGroups(
      groups.entities.map((e) => ({
        label: e.state.label,
        keyName: e.state.keyName ?? e.state.label,
        conditions: e.state.conditions ?? [],
        count: e.state.items,
        typeName: typeNameOf(e.state),
      })),
    ).map(({ group, name }) => ({ label: group.label, name }));
  }
  const entities: EntitySchema[] = named
    .map(({ label, name }) => {
      const e = stateByLabel.get(label) as (typeof groups.entities)[number];
      const patterns = keyPatternsOf(e.state);
      return {
        name,
        keyPattern: patterns[0]?.pattern ?? '',
        keyPatterns: patterns,
        ...(e.state.conditions ? { conditions: e.state.conditions } : {}),
        items: e.state.items,
        maxItemBytes: e.state.maxItemBytes,
        attributes: attributesOf(e.paths, e.state.items, keyNames),
        untrackedPaths: e.state.untrackedPaths,
        indexPatterns: indexPatternsOf(e.state),
      };
    })
    .sort((a, b) => b.items - a.items || (a.name < b.name ? -1 : 1));
  const attributes = attributesOf(groups.all, state.all.items, keyNames);
  return {
    ...head,
    itemsScanned: state.items,
    entities,
    attributes,
    maxItemBytes: state.all.maxItemBytes,
    warnings: schemaWarnings({ attributes, entities, all: state.all, keys: head.keys, keyNames }),
    untrackedPaths: state.all.untrackedPaths,
    untrackedEntityItems: state.untrackedEntityItems,
    ...(state.syntheticKeys && head.indexes
      ? { keyAdvice: keyAdviceOf(state.syntheticKeys, head.indexes, attributes) }
      : {}),
  };
}

export { EXACT_LIMIT };
