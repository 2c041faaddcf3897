import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { KeySchema } from '../../shared/ipc/tables';
import type { KeyCondition } from '../../shared/sql/catalog';
import { utf8Length } from '../../shared/dynamo/item-size';
import { entityGroupOf, TYPE_ATTRIBUTES } from '../sql/catalog/entity-detect';
import { PathStats, type PathState } from './path-stats';
import { binaryText, keyShape } from './sdk-values';
import { schemaPathOf } from '../../shared/schema/schema-paths';
import { PathWalker, type PathVisitor } from './path-walker';

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
}

export interface SchemaAccumulatorOptions {
  keys: KeySchema;
  entities: EntitySource;
  /** Distinct paths tracked per group; more are counted in untrackedPaths. */
  maxPaths?: number;
  maxEntities?: number;
  /** The table's indexes: which of them each entity's items appear in, with which key shape. */
  indexes?: readonly { name: string; keys: KeySchema }[];
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
 * their set's path) into per-path statistics, once for "all items" and once for the item's
 * entity. Items come as the SDK returns them: only binary differs from the tagged form, and
 * binary is read by length and as base64 for distinct counting.
 * State is plain JSON and merge()-able, so each Scan segment accumulates alone and a checkpoint
 * persists it; nothing here depends on the order items arrive in.
 */
export class SchemaAccumulator {
  private readonly all: Group;
  private readonly entities = new Map<string, Group>();
  private readonly maxPaths: number;
  private readonly maxEntities: number;
  private serial = 0;
  private itemBytes = 0;
  private current: Group[] = [];
  private untrackedEntityItems: number;
  private items: number;
  private readonly walker = new PathWalker({ lists: 'element', format: schemaPathOf });

  constructor(
    private readonly options: SchemaAccumulatorOptions,
    state: SchemaState = emptySchemaState(),
  ) {
    this.maxPaths = options.maxPaths ?? 2000;
    this.maxEntities = options.maxEntities ?? 50;
    this.all = new Group(state.all);
    for (const e of state.entities) this.entities.set(e.label, new Group(e));
    this.untrackedEntityItems = state.untrackedEntityItems;
    this.items = state.items;
  }

  get itemCount(): number {
    return this.items;
  }

  add(item: SdkItem): void {
    this.items += 1;
    this.serial += 1;
    this.itemBytes = 0;
    const entity = this.entityOf(item);
    this.current = entity ? [this.all, entity] : [this.all];
    this.walker.walkItem(item, this.visitor);
    const { keys, indexes = [] } = this.options;
    const pattern = keyPatternOf(item, keys);
    // An index holds an item only when the item has all of the index's key attributes.
    const inIndexes =
      indexes.length === 0
        ? []
        : indexes
            .filter(
              (i) =>
                own(item, i.keys.partitionKey.name) && (!i.keys.sortKey || own(item, i.keys.sortKey.name)),
            )
            .map((i) => `${i.name}\u0000${keyPatternOf(item, i.keys)}`);
    for (const group of this.current) {
      for (const p of inIndexes) {
        const seen = group.indexPatterns.get(p);
        if (seen !== undefined || group.indexPatterns.size < MAX_KEY_PATTERNS * 4)
          group.indexPatterns.set(p, (seen ?? 0) + 1);
      }
      const s = group.state;
      s.items += 1;
      if (this.itemBytes > s.maxItemBytes) s.maxItemBytes = this.itemBytes;
      if (this.itemBytes >= NEAR_LIMIT_BYTES) s.nearLimit += 1;
      const seen = group.keyPatterns.get(pattern);
      if (seen !== undefined || group.keyPatterns.size < MAX_KEY_PATTERNS)
        group.keyPatterns.set(pattern, (seen ?? 0) + 1);
    }
  }

  addAll(items: readonly SdkItem[]): void {
    for (const item of items) this.add(item);
  }

  merge(other: SchemaState): void {
    this.items += other.items;
    this.untrackedEntityItems += other.untrackedEntityItems;
    mergeGroup(this.all, other.all, this.maxPaths);
    for (const e of other.entities) {
      let group = this.entities.get(e.label);
      if (!group) {
        if (this.entities.size >= this.maxEntities) {
          this.untrackedEntityItems += e.items;
          continue;
        }
        group = new Group({ ...emptyGroup(e.label), keyName: e.keyName, conditions: e.conditions });
        this.entities.set(e.label, group);
      }
      mergeGroup(group, e, this.maxPaths);
    }
  }

  toJSON(): SchemaState {
    return {
      version: 1,
      items: this.items,
      all: this.all.toJSON(),
      entities: [...this.entities.values()].map((g) => g.toJSON()),
      untrackedEntityItems: this.untrackedEntityItems,
    };
  }

  /** Runtime statistics, for the report (distinct estimates, most common values). */
  groups(): {
    all: ReadonlyMap<string, PathStats>;
    entities: { state: GroupState; paths: ReadonlyMap<string, PathStats> }[];
  } {
    return {
      all: this.all.paths,
      entities: [...this.entities.values()].map((g) => ({ state: g.toJSON(), paths: g.paths })),
    };
  }

  private entityOf(item: SdkItem): Group | undefined {
    const source = this.options.entities;
    let label: string;
    let keyName: string | undefined;
    let conditions: KeyCondition[] | undefined;
    if (source.kind === 'attribute') {
      const v = own(item, source.name);
      label = `attr:${v?.S ?? (v?.N !== undefined ? v.N : '')}`;
    } else {
      const keys = this.options.keys;
      const group = entityGroupOf(item, keys.partitionKey.name, keys.sortKey?.name);
      if (!group) return undefined;
      ({ label, keyName, conditions } = group);
    }
    let entity = this.entities.get(label);
    if (!entity) {
      if (this.entities.size >= this.maxEntities) {
        this.untrackedEntityItems += 1;
        return undefined;
      }
      entity = new Group({ ...emptyGroup(label), keyName, conditions });
      this.entities.set(label, entity);
    }
    if (source.kind === 'keys') voteTypes(entity.state, item);
    return entity;
  }

  private stats(path: string): PathStats[] {
    const out: PathStats[] = [];
    for (const group of this.current) {
      let p = group.paths.get(path);
      if (!p) {
        if (group.paths.size >= this.maxPaths) {
          group.state.untrackedPaths += 1;
          continue;
        }
        p = PathStats.empty(path);
        group.paths.set(path, p);
      }
      p.seen(this.serial);
      out.push(p);
    }
    return out;
  }

  /** The walker's visitor: one call per value, its path a node of the walker's trie. */
  private readonly visitor: PathVisitor = {
    value: (node, value, type) => {
      if (typeof node.step === 'string') this.itemBytes += utf8Length(node.step) + (node.depth > 1 ? 1 : 0);
      const stats = this.stats(node.text);
      for (const p of stats) p.typed(type);
      switch (type) {
        case 'S': {
          const s = value.S as string;
          this.itemBytes += utf8Length(s);
          for (const p of stats) p.string(s);
          break;
        }
        case 'N': {
          const n = value.N as string;
          this.itemBytes += Math.ceil(n.length / 2) + 1;
          for (const p of stats) p.number(n);
          break;
        }
        case 'B': {
          const b = binaryText(value.B);
          this.itemBytes += Math.floor((b.length * 3) / 4);
          for (const p of stats) p.binary(b);
          break;
        }
        case 'BOOL':
          this.itemBytes += 1;
          for (const p of stats) p.scalar(value.BOOL ? 'BOOLtrue' : 'BOOLfalse');
          break;
        case 'NULL':
          this.itemBytes += 1;
          for (const p of stats) p.scalar('NULL');
          break;
        case 'M':
          this.itemBytes += 3;
          break;
        case 'L': {
          const length = (value.L as SdkValue[]).length;
          this.itemBytes += 3 + length;
          for (const p of stats) p.listLength(length);
          break;
        }
        case 'SS':
          for (const p of stats) p.setSize((value.SS as string[]).length);
          for (const s of value.SS as string[]) {
            this.itemBytes += utf8Length(s);
            for (const p of stats) p.string(s);
          }
          break;
        case 'NS':
          for (const p of stats) p.setSize((value.NS as string[]).length);
          for (const n of value.NS as string[]) {
            this.itemBytes += Math.ceil(n.length / 2) + 1;
            for (const p of stats) p.number(n);
          }
          break;
        case 'BS':
          for (const p of stats) p.setSize((value.BS as unknown[]).length);
          for (const raw of value.BS as unknown[]) {
            const b = binaryText(raw);
            this.itemBytes += Math.floor((b.length * 3) / 4);
            for (const p of stats) p.binary(b);
          }
          break;
      }
    },
  };
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
  for (const [pattern, n] of from.keyPatterns) {
    const seen = into.keyPatterns.get(pattern);
    if (seen !== undefined || into.keyPatterns.size < MAX_KEY_PATTERNS)
      into.keyPatterns.set(pattern, (seen ?? 0) + n);
  }
  for (const [pattern, n] of from.indexPatterns ?? []) {
    const seen = into.indexPatterns.get(pattern);
    if (seen !== undefined || into.indexPatterns.size < MAX_KEY_PATTERNS * 4)
      into.indexPatterns.set(pattern, (seen ?? 0) + n);
  }
  for (const p of from.paths) {
    const mine = into.paths.get(p.path);
    if (mine) mine.merge(new PathStats(p));
    else if (into.paths.size < maxPaths) into.paths.set(p.path, new PathStats(structuredClone(p)));
    else s.untrackedPaths += 1;
  }
}
