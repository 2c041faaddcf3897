import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { KeySchema } from '../../shared/ipc/tables';
import type { KeyCondition } from '../../shared/sql/catalog';
import { TYPE_ATTRIBUTES } from '../sql/catalog/entity-detect';
import { PathStats, type PathState } from './path-stats';
import { KeyShapes } from './sdk-values';
import { keyAttributeNames } from '../../shared/dynamo/key-model';
import { keyPatternText } from '../../shared/schema/key-pattern';

type SdkItem = Record<string, SdkValue>;

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

/** An item past this share of DynamoDB's 400 KB limit is "near the limit". */
export const NEAR_LIMIT_BYTES = 300 * 1024;
const MAX_KEY_PATTERNS = 20;

export const emptyGroup = (label: string): GroupState => ({
  label,
  items: 0,
  keyPatterns: [],
  maxItemBytes: 0,
  nearLimit: 0,
  paths: [],
  untrackedPaths: 0,
});

export const own = (item: SdkItem, name: string): SdkValue | undefined =>
  Object.prototype.hasOwnProperty.call(item, name) ? item[name] : undefined;

/**
 * `PK=USER#… SK=ORDER#…`: the shape of an item's keys in the table or one index (`prefix` names
 * the index), the same string again while the shapes stay the same. A multi-attribute index key
 * names every partition attribute, then every sort attribute, in KeySchema order.
 */
export class KeyPattern {
  private readonly names: string[];
  private readonly shapes: KeyShapes[];
  private readonly last: string[];
  private pattern = '';

  constructor(
    readonly keys: KeySchema,
    private readonly prefix = '',
  ) {
    this.names = keyAttributeNames(keys);
    this.shapes = this.names.map(() => new KeyShapes());
    this.last = this.names.map(() => '');
  }

  of(item: SdkItem): string {
    let changed = this.pattern === '';
    for (let i = 0; i < this.names.length; i++) {
      const shape = (this.shapes[i] as KeyShapes).of(own(item, this.names[i] as string));
      if (shape !== this.last[i]) {
        this.last[i] = shape;
        changed = true;
      }
    }
    if (changed) this.pattern = `${this.prefix}${keyPatternText(this.names, this.last)}`;
    return this.pattern;
  }

  /** An index holds an item only when the item has all of the index's key attributes. */
  holds(item: SdkItem): boolean {
    return this.names.every((name) => !!own(item, name));
  }
}

/** One group's statistics at runtime: its paths' PathStats and its key shapes as Maps. */
export class Group {
  readonly paths = new Map<string, PathStats>();
  readonly keyPatterns: Map<string, number>;
  readonly indexPatterns: Map<string, number>;
  /** Its position among the accumulator's live groups (a path node's statistics slot), or -1. */
  liveId = -1;

  constructor(readonly state: GroupState) {
    for (const p of state.paths) this.paths.set(p.path, new PathStats(p));
    this.keyPatterns = new Map(state.keyPatterns);
    this.indexPatterns = new Map(state.indexPatterns ?? []);
  }

  /** An item whose values were counted: its size and key shapes. */
  countItem(item: SdkItem, itemBytes: number, keys: KeyPattern, indexes: readonly KeyPattern[]): void {
    for (const index of indexes)
      if (index.holds(item)) bumpBounded(this.indexPatterns, index.of(item), 1, MAX_KEY_PATTERNS * 4);
    const s = this.state;
    s.items += 1;
    if (itemBytes > s.maxItemBytes) s.maxItemBytes = itemBytes;
    if (itemBytes >= NEAR_LIMIT_BYTES) s.nearLimit += 1;
    bumpBounded(this.keyPatterns, keys.of(item), 1, MAX_KEY_PATTERNS);
  }

  /** Which type attributes the group's items agree on (before the item is counted). */
  voteTypes(item: SdkItem): void {
    const state = this.state;
    const votes = (state.typeVotes ??= TYPE_ATTRIBUTES.map(() => undefined as unknown as TypeVote));
    for (let i = 0; i < TYPE_ATTRIBUTES.length; i++) {
      const value = own(item, TYPE_ATTRIBUTES[i] as string)?.S ?? null;
      votes[i] = combineVote(votes[i], value, state.items === 0);
    }
  }

  merge(from: GroupState, maxPaths: number): void {
    const s = this.state;
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
    for (const [pattern, n] of from.keyPatterns) bumpBounded(this.keyPatterns, pattern, n, MAX_KEY_PATTERNS);
    for (const [pattern, n] of from.indexPatterns ?? [])
      bumpBounded(this.indexPatterns, pattern, n, MAX_KEY_PATTERNS * 4);
    for (const p of from.paths) {
      const mine = this.paths.get(p.path);
      if (mine) mine.merge(new PathStats(p));
      else if (this.paths.size < maxPaths) this.paths.set(p.path, new PathStats(structuredClone(p)));
      else s.untrackedPaths += 1;
    }
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

function bumpBounded(counts: Map<string, number>, key: string, by: number, bound: number): void {
  const seen = counts.get(key);
  if (seen !== undefined || counts.size < bound) counts.set(key, (seen ?? 0) + by);
}

function combineVote(a: TypeVote | undefined, b: TypeVote | undefined, isFirst: boolean): TypeVote {
  if (isFirst || a === undefined) return b === undefined ? false : b;
  if (b === undefined) return a;
  return a === b ? a : false;
}
