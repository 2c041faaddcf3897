import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { KeySchema } from '../../shared/ipc/tables';
import type { Item } from '../../shared/dynamo/attribute-value';
import { EntityLabels, entityGroupOfLabel, TYPE_ATTRIBUTES } from '../sql/catalog/entity-detect';
import { PathStats, TYPE_INDEX } from './path-stats';
import { binaryText } from './sdk-values';
import { emptyGroup, Group, type GroupState, KeyPattern, own } from './schema-groups';
import { schemaPathOf } from '../../shared/schema/schema-paths';
import { type PathNode, PathWalker, type PathVisitor } from './path-walker';
import { DateFindings, emptyFindings, type FindingsOptions, type FindingsState } from './findings';
import { formatPath } from '../migration/paths';
import { emptySyntheticKeys, SyntheticKeys, type SyntheticKeysState } from './synthetic-keys';
import { keyAttributeNames } from '../../shared/dynamo/key-model';
import type { WireItems } from '../dynamo/query/wire-page';
import { WireItemWalk, type WireVisitor } from './wire-walk';

type SdkItem = Record<string, SdkValue>;

/** How items are grouped into entities: SQL's key-prefix groups, or a type attribute's value. */
export type EntitySource = { kind: 'keys' } | { kind: 'attribute'; name: string };

export interface SchemaState {
  version: 1;
  items: number;
  all: GroupState;
  entities: GroupState[];
  /** Items of entities past the bound, counted only in "all items". */
  untrackedEntityItems: number;
  /** The pre-flight's date and dotted-name findings, when asked for. */
  findings?: FindingsState;
  /** How the global indexes' key values are built (the advisor's synthetic keys); absent in older checkpoints. */
  syntheticKeys?: SyntheticKeysState;
}

export interface SchemaAccumulatorOptions {
  keys: KeySchema;
  entities: EntitySource;
  /** Distinct paths tracked per group; more are counted in untrackedPaths. */
  maxPaths?: number;
  maxEntities?: number;
  /** The table's indexes: which of them each entity's items appear in, with which key shape. */
  indexes?: readonly { name: string; kind?: 'GSI' | 'LSI'; keys: KeySchema }[];
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

export { NEAR_LIMIT_BYTES, type GroupState } from './schema-groups';

export function emptySchemaState(): SchemaState {
  return { version: 1, items: 0, all: emptyGroup(''), entities: [], untrackedEntityItems: 0 };
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
  private readonly keyPattern: KeyPattern | undefined;
  private readonly indexPatterns: KeyPattern[] = [];
  private readonly entityLabels: EntityLabels | undefined;
  private readonly synthetic: SyntheticKeys | undefined;
  /** The top-level attributes an item's grouping reads: all a wire walk parses of it. */
  private readonly keyNames = new Set<string>();
  /** The set whose members a wire walk is reading. */
  private setStats: PathStats | undefined;

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
      this.keyPattern = new KeyPattern(options.keys);
      this.entityLabels = new EntityLabels(options.keys.partitionKey.name, options.keys.sortKey?.name);
      for (const i of options.indexes ?? [])
        this.indexPatterns.push(new KeyPattern(i.keys, `${i.name}\u0000`));
      for (const keys of [options.keys, ...(options.indexes ?? []).map((i) => i.keys)])
        for (const name of keyAttributeNames(keys)) this.keyNames.add(name);
      if (options.entities.kind === 'attribute') this.keyNames.add(options.entities.name);
      else for (const name of TYPE_ATTRIBUTES) this.keyNames.add(name);
      const fresh = emptySyntheticKeys(options.indexes ?? []);
      if (fresh.indexes.length > 0) {
        this.synthetic = new SyntheticKeys(fresh);
        if (state.syntheticKeys) this.synthetic.merge(state.syntheticKeys);
      }
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
    this.startItem(item, this.options);
    this.walker.walkItem(item, this.visitor);
    this.endItem(item);
  }

  addAll(items: Iterable<SdkItem | Item>): void {
    for (const item of items) this.add(item);
  }

  /**
   * A page's items as the response sent them: walked from the body's bytes (wire-walk.ts), none
   * made an object, when only per-path statistics are kept; the pre-flight's findings and the
   * synthetic keys read whole items, and take them as addAll does.
   */
  addWire(items: WireItems): void {
    const wire = items.wire;
    if (!wire || !this.options || this.dates || this.synthetic) {
      this.addAll(items);
      return;
    }
    const walk = new WireItemWalk(wire.body, this.walker, this.wireVisitor);
    const spans = wire.spans;
    for (let i = 0; i < spans.length; i += 2) walk.items(spans[i] as number, spans[i + 1] as number);
  }

  /** Before an item's values: its group, whose statistics its values go to. */
  private startItem(item: SdkItem, options: SchemaAccumulatorOptions): void {
    this.serial += 1;
    this.itemBytes = 0;
    this.current = this.groupOf(item, options);
    this.currentId = this.current.liveId;
  }

  private endItem(item: SdkItem): void {
    this.current.countItem(item, this.itemBytes, this.keyPattern as KeyPattern, this.indexPatterns);
    this.synthetic?.add(item, this.itemBytes);
  }

  merge(other: SchemaState): void {
    this.items += other.items;
    if (other.findings) this.dates?.merge(other.findings);
    if (!this.options) return;
    if (other.syntheticKeys) this.synthetic?.merge(other.syntheticKeys);
    this.untrackedEntityItems += other.untrackedEntityItems;
    this.baseAll.merge(other.all, this.maxPaths);
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
      group.merge(e, this.maxPaths);
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
      ...(this.synthetic ? { syntheticKeys: this.synthetic.toJSON() } : {}),
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
      all.merge({ ...state, typeVotes: undefined }, this.maxPaths);
      if (label === REST) continue;
      const into = entities.get(label);
      if (into) into.merge(state, this.maxPaths);
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
      group.liveId = this.live.size;
      this.live.set(label, group);
    }
    return group;
  }

  private groupOf(item: SdkItem, options: SchemaAccumulatorOptions): Group {
    const source = options.entities;
    let label: string | undefined;
    if (source.kind === 'attribute') {
      const v = own(item, source.name);
      label = `attr:${v?.S ?? (v?.N !== undefined ? v.N : '')}`;
    } else {
      label = (this.entityLabels as EntityLabels).of(item);
      if (label === undefined) return this.liveGroup(REST, () => emptyGroup(''));
    }
    let entity = this.live.get(label);
    if (!entity) {
      if (!this.baseEntities.has(label) && this.entityCount(label) >= this.maxEntities) {
        this.untrackedEntityItems += 1;
        return this.liveGroup(REST, () => emptyGroup(''));
      }
      const named = label;
      entity = this.liveGroup(named, () => {
        if (source.kind === 'attribute') return emptyGroup(named);
        const keys = options.keys;
        const { keyName, conditions } = entityGroupOfLabel(named, keys.partitionKey.name, keys.sortKey?.name);
        return { ...emptyGroup(named), keyName, conditions };
      });
    }
    if (source.kind === 'keys') entity.voteTypes(item);
    return entity;
  }

  private stats(node: PathNode, slot: NodeSlot): PathStats | undefined {
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
    slot.stats[this.currentId] = p;
    return p;
  }

  /** A value at `node`: its name's bytes counted, its path's statistics (none past maxPaths). */
  private at(node: PathNode): PathStats | undefined {
    const slot = (node.slot ??= slotOf(node)) as NodeSlot;
    this.itemBytes += slot.nameBytes;
    // The node remembers its statistics per live group: no lookup by path text per value.
    const p = slot.stats[this.currentId] ?? this.stats(node, slot);
    p?.seen(this.serial);
    return p;
  }

  /** The walker's visitor: one call per value, its path a node of the walker's trie. */
  private readonly statsVisitor: PathVisitor = {
    value: (node, value, type) => {
      this.dates?.visitor.value(node, value, type);
      const p = this.at(node);
      switch (type) {
        case TYPE_INDEX.S: {
          const s = value.S as string;
          p?.typed(TYPE_INDEX.S);
          this.itemBytes += p ? p.string(s) : utf8Bytes(s);
          break;
        }
        case TYPE_INDEX.N: {
          const n = value.N as string;
          p?.typed(TYPE_INDEX.N);
          this.itemBytes += Math.ceil(n.length / 2) + 1;
          p?.number(n);
          break;
        }
        case TYPE_INDEX.B: {
          const b = binaryText(value.B);
          p?.typed(TYPE_INDEX.B);
          this.itemBytes += Math.floor((b.length * 3) / 4);
          p?.binary(b);
          break;
        }
        case TYPE_INDEX.BOOL:
          p?.typed(TYPE_INDEX.BOOL);
          this.itemBytes += 1;
          p?.scalar(value.BOOL ? 'BOOLtrue' : 'BOOLfalse');
          break;
        case TYPE_INDEX.NULL:
          p?.typed(TYPE_INDEX.NULL);
          this.itemBytes += 1;
          p?.scalar('NULL');
          break;
        case TYPE_INDEX.M:
          p?.typed(TYPE_INDEX.M);
          this.itemBytes += 3;
          break;
        case TYPE_INDEX.L: {
          p?.typed(TYPE_INDEX.L);
          const length = (value.L as SdkValue[]).length;
          this.itemBytes += 3 + length;
          p?.listLength(length);
          break;
        }
        case TYPE_INDEX.SS:
          p?.typed(TYPE_INDEX.SS);
          p?.setSize((value.SS as string[]).length);
          for (const s of value.SS as string[]) this.itemBytes += p ? p.string(s) : utf8Bytes(s);
          break;
        case TYPE_INDEX.NS:
          p?.typed(TYPE_INDEX.NS);
          p?.setSize((value.NS as string[]).length);
          for (const n of value.NS as string[]) {
            this.itemBytes += Math.ceil(n.length / 2) + 1;
            p?.number(n);
          }
          break;
        case TYPE_INDEX.BS:
          p?.typed(TYPE_INDEX.BS);
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

  /** The same statistics from a wire walk: every value as the statsVisitor counts it. */
  private readonly wireVisitor: WireVisitor = {
    isKey: (node) => {
      const slot = (node.slot ??= slotOf(node)) as NodeSlot;
      return (slot.isKey ??= this.keyNames.has(node.step as string));
    },
    startItem: (keys) => {
      this.items += 1;
      this.startItem(keys as SdkItem, this.options as SchemaAccumulatorOptions);
    },
    endItem: (keys) => this.endItem(keys as SdkItem),
    open: (node, type) => {
      const p = this.at(node);
      p?.typed(type);
      if (type === TYPE_INDEX.M || type === TYPE_INDEX.L) this.itemBytes += 3;
      else this.setStats = p;
    },
    close: (node, type, count) => {
      const p = (node.slot as NodeSlot).stats[this.currentId];
      if (type === TYPE_INDEX.L) {
        this.itemBytes += count;
        p?.listLength(count);
      } else p?.setSize(count);
    },
    stringSpan: (node, body, start, end, inSet) => {
      const p = inSet ? this.setStats : this.at(node);
      if (!inSet) p?.typed(TYPE_INDEX.S);
      // Without escapes, the body's bytes are the string's UTF-8.
      this.itemBytes += p ? p.stringSpan(body, start, end) : end - start;
    },
    string: (node, s, inSet) => {
      const p = inSet ? this.setStats : this.at(node);
      if (!inSet) p?.typed(TYPE_INDEX.S);
      this.itemBytes += p ? p.string(s) : utf8Bytes(s);
    },
    number: (node, n, inSet) => {
      const p = inSet ? this.setStats : this.at(node);
      if (!inSet) p?.typed(TYPE_INDEX.N);
      this.itemBytes += Math.ceil(n.length / 2) + 1;
      p?.number(n);
    },
    numberSpan: (node, body, start, end, inSet) => {
      const p = inSet ? this.setStats : this.at(node);
      if (!inSet) p?.typed(TYPE_INDEX.N);
      // A number's text is ASCII: its length is its bytes'.
      this.itemBytes += Math.ceil((p ? p.numberSpan(body, start, end) : end - start) / 2) + 1;
    },
    binary: (node, b, inSet) => {
      const p = inSet ? this.setStats : this.at(node);
      if (!inSet) p?.typed(TYPE_INDEX.B);
      this.itemBytes += Math.floor((b.length * 3) / 4);
      p?.binary(b);
    },
    bool: (node, value) => {
      const p = this.at(node);
      p?.typed(TYPE_INDEX.BOOL);
      this.itemBytes += 1;
      p?.scalar(value ? 'BOOLtrue' : 'BOOLfalse');
    },
    null: (node) => {
      const p = this.at(node);
      p?.typed(TYPE_INDEX.NULL);
      this.itemBytes += 1;
      p?.scalar('NULL');
    },
  };
}

/** What the statistics visitor hangs on a path's node. */
interface NodeSlot {
  /** Whether it is a top-level attribute the item's grouping reads (asked by a wire walk only). */
  isKey?: boolean;
  /** Bytes the path's last name adds to its item's size (and the dot of a nested name). */
  nameBytes: number;
  /** The path's statistics per live group (by the group's position in the live list). */
  stats: (PathStats | undefined)[];
}

function slotOf(node: PathNode): NodeSlot {
  return {
    nameBytes: typeof node.step === 'string' ? utf8Bytes(node.step) + (node.depth > 1 ? 1 : 0) : 0,
    stats: [],
  };
}

/** UTF-8 bytes; Buffer's count is a fast native call, cheaper than a per-string regex. */
const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

const REST = '\u0000rest';
