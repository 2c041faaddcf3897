import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { KeySchema } from '../../shared/ipc/tables';
import type { Item } from '../../shared/dynamo/attribute-value';
import type { KeyCondition } from '../../shared/sql/catalog';
import { utf8Length } from '../../shared/dynamo/item-size';
import { entityGroupOf, TYPE_ATTRIBUTES } from '../sql/catalog/entity-detect';
import { PathStats, type PathState } from './path-stats';
import { binaryText, keyShape } from './sdk-values';
import { schemaPathOf } from '../../shared/schema/schema-paths';
import { type PathNode, PathWalker, type PathVisitor } from './path-walker';
import { DateFindings, emptyFindings, type FindingsOptions, type FindingsState } from './findings';
import { formatPath } from '../migration/paths';

type SdkItem = Record<string, SdkValue>;

/** How items are grouped into entities: SQL's key-prefix groups, or a type attribute's value. */
export type EntitySource = { kind: 'keys' } | { kind: 'attribute'; name: string };

/** A type attribute's agreement within a group: a value, null (missing), false (disagreed). */
type TypeVote = string | null | false;

export interface GroupState {
  /** '' for all items; the SQL group label (`sk:ORDER`) or `attr:<value>` for an entity. */
  label: string;
  keyName?: string;
  conditions?: KeyCondition[];
  items: number;
  /** Per TYPE_ATTRIBUTES entry; absent until the first item. */
  typeVotes?: TypeVote[];
  keyPatterns: [string, number][];
  /** `<index>\u0000<pattern>`: the key shapes of the group's items in each index that holds them. */
  indexPatterns?: [string, number][];
  maxItemBytes: number;
  nearLimit: number;
  paths: PathState[];
  untrackedPaths: number;
}

export interface SchemaState {
  version: 1;
  items: number;
  all: GroupState;
  entities: GroupState[];
  /** Items of entities past the bound, counted only in "all items". */
  untrackedEntityItems: number;
  /** The pre-flight's date and dotted-name findings, when asked for. */
  findings?: FindingsState;
}

export interface SchemaAccumulatorOptions {
  keys: KeySchema;
  entities: EntitySource;
  /** Distinct paths tracked per group; more are counted in untrackedPaths. */
  maxPaths?: number;
  maxEntities?: number;
  /** The table's indexes: which of them each entity's items appear in, with which key shape. */
  indexes?: readonly { name: string; keys: KeySchema }[];
  /** Also the pre-flight's findings, in the same walk (paths as the Schema view writes them). */
  findings?: FindingsOptions;
}

/**
 * The pre-flight's use: findings only, list elements by position (a fix needs the exact path),
 * and none of the per-path statistics, so its scan keeps the speed of the Scan that feeds it.
 */
export interface FindingsOnlyOptions {
  findingsOnly: FindingsOptions;
}

/** An item past this share of DynamoDB's 400 KB limit is "near the limit". */
export const NEAR_LIMIT_BYTES = 300 * 1024;
const MAX_KEY_PATTERNS = 20;

class Group {
  readonly paths = new Map<string, PathStats>();
  readonly keyPatterns: Map<string, number>;
  readonly indexPatterns: Map<string, number>;
  constructor(readonly state: GroupState) {
    for (const p of state.paths) this.paths.set(p.path, new PathStats(p));
    this.keyPatterns = new Map(state.keyPatterns);
    this.indexPatterns = new Map(state.indexPatterns ?? []);
  }
  toJSON(): GroupState {
    return {
      ...this.state,
      keyPatterns: [...this.keyPatterns],
      indexPatterns: [...this.indexPatterns],
      paths: [...this.paths.values()].map((p) => p.toJSON()),
    };
  }
}

const emptyGroup = (label: string): GroupState => ({
  label,
  items: 0,
  keyPatterns: [],
  maxItemBytes: 0,
  nearLimit: 0,
  paths: [],
  untrackedPaths: 0,
});

export function emptySchemaState(): SchemaState {
  return { version: 1, items: 0, all: emptyGroup(''), entities: [], untrackedEntityItems: 0 };
}

const own = (item: SdkItem, name: string): SdkValue | undefined =>
  Object.prototype.hasOwnProperty.call(item, name) ? item[name] : undefined;

/** `PK=USER#… SK=ORDER#…`: the shape of an item's keys in the table or one index. */
function keyPatternOf(item: SdkItem, keys: KeySchema): string {
  return (
    `${keys.partitionKey.name}=${keyShape(own(item, keys.partitionKey.name))}` +
    (keys.sortKey ? ` ${keys.sortKey.name}=${keyShape(own(item, keys.sortKey.name))}` : '')
  );
}

/**
 * Walks every attribute path of every item (map keys, list elements as `[]`, set members at
 * their set's path) into per-path statistics, for "all items" and for the item's entity. Items
 * come as the SDK returns them: only binary differs from the tagged form, and binary is read by
 * length and as base64 for distinct counting.
 * Each value is counted once, into the group of its item (its entity, or the items of no
 * entity); "all items" is those groups merged when the state is read. Counting it twice (all and
 * entity) as values arrive doubled the analysis's CPU per item, and merging is what a checkpoint
 * of many segments does anyway.
 * State is plain JSON and merge()-able, so each Scan segment accumulates alone and a checkpoint
 * persists it; nothing here depends on the order items arrive in.
 */
export class SchemaAccumulator {
  /** What was loaded or merged in: "all items" and entities as already folded. */
  private readonly baseAll: Group;
  private readonly baseEntities = new Map<string, Group>();
  /** Items added here, by entity label; REST holds items of no (or no more tracked) entity. */
  private readonly live = new Map<string, Group>();
  private readonly liveList: Group[] = [];
  private readonly maxPaths: number;
  private readonly maxEntities: number;
  private serial = 0;
  private itemBytes = 0;
  private current!: Group;
  private currentId = 0;
  private untrackedEntityItems: number;
  private items: number;
  private readonly walker: PathWalker;
  /** Absent when only findings are kept. */
  private readonly options: SchemaAccumulatorOptions | undefined;
  private readonly dates: DateFindings | undefined;
  private readonly visitor: PathVisitor;

  constructor(
    options: SchemaAccumulatorOptions | FindingsOnlyOptions,
    state: SchemaState = emptySchemaState(),
  ) {
    if ('findingsOnly' in options) {
      this.dates = new DateFindings(options.findingsOnly, state.findings);
      this.walker = new PathWalker({
        lists: 'index',
        format: (steps) => formatPath(steps),
        maxNodes: this.dates.maxPaths * 4,
      });
      this.visitor = this.dates.visitor;
    } else {
      this.options = options;
      if (options.findings) this.dates = new DateFindings(options.findings, state.findings);
      this.walker = new PathWalker({ lists: 'element', format: schemaPathOf });
      this.visitor = this.statsVisitor;
    }
    this.maxPaths = this.options?.maxPaths ?? 2000;
    this.maxEntities = this.options?.maxEntities ?? 50;
    this.baseAll = new Group(state.all);
    for (const e of state.entities) this.baseEntities.set(e.label, new Group(e));
    this.untrackedEntityItems = state.untrackedEntityItems;
    this.items = state.items;
  }

  /** The pre-flight's accumulator; `state` is updated in place, so a checkpoint holding it stays current. */
  static findingsOnly(options: FindingsOptions, state: FindingsState = emptyFindings()): SchemaAccumulator {
    return new SchemaAccumulator({ findingsOnly: options }, { ...emptySchemaState(), findings: state });
  }

  get itemCount(): number {
    return this.items;
  }

  /** The pre-flight's findings; throws when they were not asked for. */
  get findings(): FindingsState {
    if (!this.dates) throw new Error('This accumulator keeps no pre-flight findings.');
    return this.dates.state;
  }

  /** An item as the SDK returns it, or in the tagged form (they differ only in binary). */
  add(tagged: SdkItem | Item): void {
    const item = tagged as SdkItem;
    this.items += 1;
    this.dates?.startItem(tagged as Item);
    if (!this.options) {
      this.walker.walkItem(item, this.visitor);
      return;
    }
    this.serial += 1;
    this.itemBytes = 0;
    const options = this.options;
    const group = this.groupOf(item, options);
    this.current = group;
    this.currentId = this.liveList.indexOf(group);
    this.walker.walkItem(item, this.visitor);
    const { keys, indexes = [] } = options;
    // An index holds an item only when the item has all of the index's key attributes.
    for (const i of indexes) {
      if (!own(item, i.keys.partitionKey.name) || (i.keys.sortKey && !own(item, i.keys.sortKey.name)))
        continue;
      bumpBounded(
        group.indexPatterns,
        `${i.name}\u0000${keyPatternOf(item, i.keys)}`,
        1,
        MAX_KEY_PATTERNS * 4,
      );
    }
    const s = group.state;
    s.items += 1;
    if (this.itemBytes > s.maxItemBytes) s.maxItemBytes = this.itemBytes;
    if (this.itemBytes >= NEAR_LIMIT_BYTES) s.nearLimit += 1;
    bumpBounded(group.keyPatterns, keyPatternOf(item, keys), 1, MAX_KEY_PATTERNS);
  }

  addAll(items: readonly (SdkItem | Item)[]): void {
    for (const item of items) this.add(item);
  }

  merge(other: SchemaState): void {
    this.items += other.items;
    if (other.findings) this.dates?.merge(other.findings);
    if (!this.options) return;
    this.untrackedEntityItems += other.untrackedEntityItems;
    mergeGroup(this.baseAll, other.all, this.maxPaths);
    for (const e of other.entities) {
      let group = this.baseEntities.get(e.label);
      if (!group) {
        if (this.entityCount(e.label) >= this.maxEntities) {
          this.untrackedEntityItems += e.items;
          continue;
        }
        group = new Group({ ...emptyGroup(e.label), keyName: e.keyName, conditions: e.conditions });
        this.baseEntities.set(e.label, group);
      }
      mergeGroup(group, e, this.maxPaths);
    }
  }

  toJSON(): SchemaState {
    const { all, entities } = this.folded();
    return {
      version: 1,
      items: this.items,
      all: all.toJSON(),
      entities: entities.map((g) => g.toJSON()),
      untrackedEntityItems: this.untrackedEntityItems,
      ...(this.dates ? { findings: this.dates.state } : {}),
    };
  }

  /** Runtime statistics, for the report (distinct estimates, most common values). */
  groups(): {
    all: ReadonlyMap<string, PathStats>;
    entities: { state: GroupState; paths: ReadonlyMap<string, PathStats> }[];
  } {
    const { all, entities } = this.folded();
    return {
      all: all.paths,
      entities: entities.map((g) => ({ state: g.toJSON(), paths: g.paths })),
    };
  }

  /** "All items" and each entity with what was added here merged in; the accumulator is untouched. */
  private folded(): { all: Group; entities: Group[] } {
    const copy = (g: Group) => new Group(structuredClone(g.toJSON()));
    const all = copy(this.baseAll);
    const entities = new Map<string, Group>();
    for (const [label, g] of this.baseEntities) entities.set(label, copy(g));
    for (const [label, g] of this.live) {
      const state = g.toJSON();
      // Type votes name an entity; "all items" has none.
      mergeGroup(all, { ...state, typeVotes: undefined }, this.maxPaths);
      if (label === REST) continue;
      const into = entities.get(label);
      if (into) mergeGroup(into, state, this.maxPaths);
      else entities.set(label, copy(g));
    }
    return { all, entities: [...entities.values()] };
  }

  private entityCount(label: string): number {
    let n = this.baseEntities.size;
    for (const l of this.live.keys()) if (l !== REST && l !== label && !this.baseEntities.has(l)) n += 1;
    return n;
  }

  private liveGroup(label: string, make: () => GroupState): Group {
    let group = this.live.get(label);
    if (!group) {
      group = new Group(make());
      this.live.set(label, group);
      this.liveList.push(group);
    }
    return group;
  }

  private groupOf(item: SdkItem, options: SchemaAccumulatorOptions): Group {
    const source = options.entities;
    let label: string;
    let keyName: string | undefined;
    let conditions: KeyCondition[] | undefined;
    if (source.kind === 'attribute') {
      const v = own(item, source.name);
      label = `attr:${v?.S ?? (v?.N !== undefined ? v.N : '')}`;
    } else {
      const keys = options.keys;
      const group = entityGroupOf(item, keys.partitionKey.name, keys.sortKey?.name);
      if (!group) return this.liveGroup(REST, () => emptyGroup(''));
      ({ label, keyName, conditions } = group);
    }
    let entity = this.live.get(label);
    if (!entity) {
      if (!this.baseEntities.has(label) && this.entityCount(label) >= this.maxEntities) {
        this.untrackedEntityItems += 1;
        return this.liveGroup(REST, () => emptyGroup(''));
      }
      entity = this.liveGroup(label, () => ({ ...emptyGroup(label), keyName, conditions }));
    }
    if (source.kind === 'keys') voteTypes(entity.state, item);
    return entity;
  }

  private stats(node: PathNode): PathStats | undefined {
    // The node remembers its statistics per live group: no lookup by path text per value.
    const slot = (node.slot ??= []) as (PathStats | undefined)[];
    const cached = slot[this.currentId];
    if (cached) return cached;
    const group = this.current;
    const path = node.text;
    let p = group.paths.get(path);
    if (!p) {
      if (group.paths.size >= this.maxPaths) {
        group.state.untrackedPaths += 1;
        return undefined;
      }
      p = PathStats.empty(path);
      group.paths.set(path, p);
    }
    slot[this.currentId] = p;
    return p;
  }

  /** The walker's visitor: one call per value, its path a node of the walker's trie. */
  private readonly statsVisitor: PathVisitor = {
    value: (node, value, type) => {
      this.dates?.visitor.value(node, value, type);
      if (typeof node.step === 'string') this.itemBytes += utf8Length(node.step) + (node.depth > 1 ? 1 : 0);
      const p = this.stats(node);
      p?.seen(this.serial);
      p?.typed(type);
      switch (type) {
        case 'S': {
          const s = value.S as string;
          this.itemBytes += utf8Length(s);
          p?.string(s);
          break;
        }
        case 'N': {
          const n = value.N as string;
          this.itemBytes += Math.ceil(n.length / 2) + 1;
          p?.number(n);
          break;
        }
        case 'B': {
          const b = binaryText(value.B);
          this.itemBytes += Math.floor((b.length * 3) / 4);
          p?.binary(b);
          break;
        }
        case 'BOOL':
          this.itemBytes += 1;
          p?.scalar(value.BOOL ? 'BOOLtrue' : 'BOOLfalse');
          break;
        case 'NULL':
          this.itemBytes += 1;
          p?.scalar('NULL');
          break;
        case 'M':
          this.itemBytes += 3;
          break;
        case 'L': {
          const length = (value.L as SdkValue[]).length;
          this.itemBytes += 3 + length;
          p?.listLength(length);
          break;
        }
        case 'SS':
          p?.setSize((value.SS as string[]).length);
          for (const s of value.SS as string[]) {
            this.itemBytes += utf8Length(s);
            p?.string(s);
          }
          break;
        case 'NS':
          p?.setSize((value.NS as string[]).length);
          for (const n of value.NS as string[]) {
            this.itemBytes += Math.ceil(n.length / 2) + 1;
            p?.number(n);
          }
          break;
        case 'BS':
          p?.setSize((value.BS as unknown[]).length);
          for (const raw of value.BS as unknown[]) {
            const b = binaryText(raw);
            this.itemBytes += Math.floor((b.length * 3) / 4);
            p?.binary(b);
          }
          break;
      }
    },
  };
}

const REST = '\u0000rest';

function bumpBounded(counts: Map<string, number>, key: string, by: number, bound: number): void {
  const seen = counts.get(key);
  if (seen !== undefined || counts.size < bound) counts.set(key, (seen ?? 0) + by);
}

function voteTypes(state: GroupState, item: SdkItem): void {
  const votes = (state.typeVotes ??= TYPE_ATTRIBUTES.map(() => undefined as unknown as TypeVote));
  TYPE_ATTRIBUTES.forEach((attribute, i) => {
    const value = own(item, attribute)?.S ?? null;
    votes[i] = combineVote(votes[i], value, state.items === 0);
  });
}

function combineVote(a: TypeVote | undefined, b: TypeVote | undefined, isFirst: boolean): TypeVote {
  if (isFirst || a === undefined) return b === undefined ? false : b;
  if (b === undefined) return a;
  return a === b ? a : false;
}

function mergeGroup(into: Group, from: GroupState, maxPaths: number): void {
  const s = into.state;
  if (from.typeVotes) {
    s.typeVotes =
      s.items === 0 || !s.typeVotes
        ? [...from.typeVotes]
        : s.typeVotes.map((v, i) => combineVote(v, from.typeVotes?.[i], false));
  }
  s.items += from.items;
  s.maxItemBytes = Math.max(s.maxItemBytes, from.maxItemBytes);
  s.nearLimit += from.nearLimit;
  s.untrackedPaths += from.untrackedPaths;
  for (const [pattern, n] of from.keyPatterns) bumpBounded(into.keyPatterns, pattern, n, MAX_KEY_PATTERNS);
  for (const [pattern, n] of from.indexPatterns ?? [])
    bumpBounded(into.indexPatterns, pattern, n, MAX_KEY_PATTERNS * 4);
  for (const p of from.paths) {
    const mine = into.paths.get(p.path);
    if (mine) mine.merge(new PathStats(p));
    else if (into.paths.size < maxPaths) into.paths.set(p.path, new PathStats(structuredClone(p)));
    else s.untrackedPaths += 1;
  }
}
