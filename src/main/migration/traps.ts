import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { defineOwn, ownValue } from '../../shared/dynamo/proto-keys';
import { EntityLabels } from '../sql/catalog/entity-detect';
import type { PathNode } from '../schema/path-walker';
import { TYPE_INDEX } from '../schema/path-stats';
import { classifyEpoch, EpochKind } from './classify';
import { DeclaredChecks, emptyDeclared, type DeclaredModel, type DeclaredState } from './declared-checks';
import { keyOf, mergeSamples, offerSample, type Sample, sortKeyOf } from './samples';

/**
 * What dynamoose releases before 4.x left in a table that the new ORM misreads (issue 29),
 * counted per entity and path in the pre-flight's one walk. Per value it compares a type index
 * and a few characters; a path's text and an item's key are built only when something is found
 * (and, for lists, sets and maps, to count the forms a path holds). Plain JSON, merge()-able
 * and updated in place, like the date findings it rides along with.
 */

/** What a cell counts; the report turns some into findings directly, others by comparing cells. */
export type TrapCounter =
  | 'booleanAsString'
  | 'documentAsString'
  | 'dottedKeyInMap'
  | 'emptyMap'
  | 'set'
  | 'list'
  | 'ttlMilliseconds'
  | 'ttlNotNumber'
  | 'ttlExpiredPresent'
  | 'ttlPresent'
  | 'ttlMissing'
  | 'updatedWithoutCreated'
  | 'staleCombine';

export interface TrapCell {
  counter: TrapCounter;
  /** The entity label (entity-detect's `pk:USER`), '' for items whose keys name none. */
  entity: string;
  path: string;
  items: number;
  samples: Sample[];
}

/** The names a map (or, at path '', an item) holds, per entity and path: how often each. */
export interface ShapeStats {
  entity: string;
  path: string;
  maps: number;
  present: Record<string, number>;
  /** Sample keys of every item with a map here: a name met later was absent from all of them. */
  all: Sample[];
  /** Per name, sample keys of the items without it. */
  absent: Record<string, Sample[]>;
}

export interface TrapState {
  version: 1;
  cells: Record<string, TrapCell>;
  shapes: Record<string, ShapeStats>;
  /** Cells or shapes not kept once the bound was reached. */
  untracked: number;
  /** With a dynamoose schema file: conformance to what it declares. */
  declared?: DeclaredState;
}

export function emptyTraps(): TrapState {
  return {
    version: 1,
    cells: Object.create(null) as never,
    shapes: Object.create(null) as never,
    untracked: 0,
  };
}

export interface TrapOptions {
  keyAttributes: readonly string[];
  sampleLimit: number;
  /** The table's TTL attribute (DescribeTimeToLive), when TTL is on. */
  ttlAttribute?: string;
  /** "Now" for expired TTL values: the scan's start, so a resumed scan counts as the first run did. */
  nowSeconds: number;
  maxCells?: number;
  /** The models of a dynamoose schema file, when the pre-flight was given one. */
  declared?: readonly DeclaredModel[];
}

/** Names a shape keeps; maps with more distinct names are data (a map keyed by ids), not records. */
const MAX_SHAPE_NAMES = 64;
const CREATED = 'createdAt';
const UPDATED = 'updatedAt';

export class TrapFindings {
  private readonly labels: EntityLabels | undefined;
  /** The state's shapes by path and entity, and each shape's names in order: the per-map lookups. */
  private readonly shapeCache = new Map<string, Map<string, ShapeStats>>();
  private readonly shapeNames = new WeakMap<ShapeStats, string[]>();
  private readonly itemKey = (): Item => keyOf(this.item, this.options.keyAttributes);
  private readonly maxCells: number;
  private cellCount: number;
  private item: Item = {};
  private itemSort: string | undefined;
  private entity = '';
  private readonly declared: DeclaredChecks | undefined;

  constructor(
    private readonly options: TrapOptions,
    readonly state: TrapState,
  ) {
    const [pk, sk] = options.keyAttributes;
    this.labels = pk ? new EntityLabels(pk, sk) : undefined;
    if (options.declared)
      this.declared = new DeclaredChecks(
        options.declared,
        options.keyAttributes,
        (state.declared ??= emptyDeclared()),
        options.sampleLimit,
      );
    this.maxCells = options.maxCells ?? 5000;
    this.cellCount = Object.keys(state.cells).length + Object.keys(state.shapes).length;
  }

  startItem(item: Item): void {
    this.item = item;
    this.itemSort = undefined;
    this.entity = this.labels?.of(item) ?? '';
    const ttl = this.options.ttlAttribute;
    if (ttl !== undefined) this.ttl(ttl, ownValue(item, ttl));
    if (ownValue(item, UPDATED) !== undefined && ownValue(item, CREATED) === undefined)
      this.count('updatedWithoutCreated', CREATED);
    if (this.declared)
      for (const name of this.declared.check(item, this.sortOfItem(), this.itemKey))
        this.count('staleCombine', name);
    this.shape('', item);
  }

  /** The walker's visit of one value (see PathVisitor). */
  value(node: PathNode, value: SdkValue, type: number): void {
    if (node.depth > 1 && typeof node.step === 'string' && node.step.includes('.'))
      this.count('dottedKeyInMap', node.text);
    if (type === TYPE_INDEX.S) {
      const s = value.S as string;
      const n = s.length;
      if ((n === 4 && s === 'true') || (n === 5 && s === 'false')) this.count('booleanAsString', node.text);
      else if (n >= 2 && isJsonDocument(s)) this.count('documentAsString', node.text);
    } else if (type === TYPE_INDEX.M) {
      const map = value.M as Record<string, AttributeValue>;
      let empty = true;
      for (const name in map)
        if (Object.prototype.hasOwnProperty.call(map, name)) {
          empty = false;
          break;
        }
      if (empty) this.count('emptyMap', node.text);
      else this.shape(node.text, map);
    } else if (type === TYPE_INDEX.L) {
      const first = (value.L as SdkValue[])[0];
      // Only lists a set could have held: a first element that is a string or a number.
      if (first !== undefined && (first.S !== undefined || first.N !== undefined))
        this.count('list', node.text);
    } else if (type === TYPE_INDEX.SS || type === TYPE_INDEX.NS) this.count('set', node.text);
  }

  merge(other: TrapState): void {
    this.state.untracked += other.untracked;
    if (other.declared) this.declared?.merge(other.declared);
    for (const key of Object.keys(other.cells)) {
      const o = other.cells[key] as TrapCell;
      const cell = this.cellAt(key, o.counter, o.entity, o.path);
      if (!cell) continue;
      cell.items += o.items;
      mergeSamples(cell.samples, o.samples, this.options.sampleLimit);
    }
    for (const key of Object.keys(other.shapes)) {
      const o = other.shapes[key] as ShapeStats;
      const s = this.shapeAt(key, o.entity, o.path);
      if (!s) continue;
      s.maps += o.maps;
      // A name one side never met was absent from every map on that side.
      for (const name of Object.keys(s.present))
        if (ownValue(o.present, name) === undefined) this.absentList(s, name, o.all);
      for (const name of Object.keys(o.present))
        if (ownValue(s.present, name) === undefined) this.absentList(s, name, s.all);
      mergeSamples(s.all, o.all, this.options.sampleLimit);
      for (const name of Object.keys(o.present)) {
        const have = ownValue(s.present, name);
        if (have === undefined && Object.keys(s.present).length >= MAX_SHAPE_NAMES) continue;
        defineOwn(s.present, name, (have ?? 0) + (o.present[name] as number));
      }
      for (const name of Object.keys(o.absent)) this.absentList(s, name, o.absent[name]);
      this.shapeNames.delete(s);
    }
  }

  private ttl(name: string, value: AttributeValue | undefined): void {
    if (value === undefined) {
      this.count('ttlMissing', name);
      return;
    }
    this.count('ttlPresent', name);
    const n = (value as { N?: string }).N;
    if (n === undefined) {
      this.count('ttlNotNumber', name);
      return;
    }
    const kind = classifyEpoch(n);
    if (kind === EpochKind.millis) this.count('ttlMilliseconds', name);
    else if (kind === EpochKind.seconds && Number(n) < this.options.nowSeconds)
      this.count('ttlExpiredPresent', name);
  }

  private count(counter: TrapCounter, path: string): void {
    const cell = this.cellAt(`${counter}\u0000${this.entity}\u0000${path}`, counter, this.entity, path);
    if (!cell) return;
    cell.items += 1;
    offerSample(
      cell.samples,
      this.sortOfItem(),
      () => keyOf(this.item, this.options.keyAttributes),
      this.options.sampleLimit,
    );
  }

  /** The names of a map (or of the item at path ''), and which known names it lacks. */
  private shape(path: string, map: Record<string, unknown>): void {
    // Found by path then entity (no key text per map): this runs for every map of every item.
    let byEntity = this.shapeCache.get(path);
    if (!byEntity) this.shapeCache.set(path, (byEntity = new Map<string, ShapeStats>()));
    let s = byEntity.get(this.entity);
    if (!s) {
      s = this.shapeAt(`${this.entity}\u0000${path}`, this.entity, path);
      if (!s) return;
      byEntity.set(this.entity, s);
    }
    s.maps += 1;
    const present = s.present;
    let known = this.shapeNames.get(s);
    if (!known) this.shapeNames.set(s, (known = Object.keys(present)));
    const sort = this.sortOfItem();
    const limit = this.options.sampleLimit;
    for (const name of known)
      if (!Object.prototype.hasOwnProperty.call(map, name))
        offerSample(this.absentList(s, name), sort, this.itemKey, limit);
    for (const name in map) {
      if (!Object.prototype.hasOwnProperty.call(map, name)) continue;
      const have = ownValue(present, name);
      if (have !== undefined) defineOwn(present, name, have + 1);
      else if (known.length < MAX_SHAPE_NAMES) {
        // Every earlier map here lacked it: their samples are the smallest of those keys.
        if (s.maps > 1) this.absentList(s, name, s.all);
        defineOwn(present, name, 1);
        known.push(name);
      }
    }
    offerSample(s.all, sort, this.itemKey, limit);
  }

  /** The absent-samples list of a name, with these samples merged in. */
  private absentList(s: ShapeStats, name: string, add: readonly Sample[] = []): Sample[] {
    let list = ownValue(s.absent, name);
    if (!list) defineOwn(s.absent, name, (list = []));
    mergeSamples(list, add, this.options.sampleLimit);
    return list;
  }

  private sortOfItem(): string {
    return (this.itemSort ??= sortKeyOf(this.item, this.options.keyAttributes));
  }

  private cellAt(key: string, counter: TrapCounter, entity: string, path: string): TrapCell | undefined {
    let cell = ownValue(this.state.cells, key);
    if (cell) return cell;
    if (this.cellCount >= this.maxCells) {
      this.state.untracked += 1;
      return undefined;
    }
    this.cellCount += 1;
    cell = { counter, entity, path, items: 0, samples: [] };
    defineOwn(this.state.cells, key, cell);
    return cell;
  }

  private shapeAt(key: string, entity: string, path: string): ShapeStats | undefined {
    let s = ownValue(this.state.shapes, key);
    if (s) return s;
    if (this.cellCount >= this.maxCells) {
      this.state.untracked += 1;
      return undefined;
    }
    this.cellCount += 1;
    s = {
      entity,
      path,
      maps: 0,
      present: Object.create(null) as Record<string, number>,
      all: [],
      absent: Object.create(null) as Record<string, Sample[]>,
    };
    defineOwn(this.state.shapes, key, s);
    return s;
  }
}

/** A string that is a JSON object or array: dynamoose 0.x's maps and lists (useDocumentTypes off). */
export function isJsonDocument(s: string): boolean {
  const first = s.charCodeAt(0);
  const last = s.charCodeAt(s.length - 1);
  if (!((first === 123 && last === 125) || (first === 91 && last === 93))) return false; // {…} or […]
  try {
    const parsed: unknown = JSON.parse(s);
    return typeof parsed === 'object' && parsed !== null;
  } catch {
    return false;
  }
}
