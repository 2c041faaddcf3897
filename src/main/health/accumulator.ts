import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { itemSize, utf8Length, valueSize } from '../../shared/dynamo/item-size';
import type { TtlClass } from '../../shared/ipc/health';
import { EntityLabels } from '../sql/catalog/entity-detect';
import { HyperLogLog } from '../schema/hll';

/** DynamoDB's item limit, and "near" it: within 12.5%. */
export const ITEM_LIMIT_BYTES = 400 * 1024;
export const NEAR_LIMIT_BYTES = ITEM_LIMIT_BYTES * 0.875;
/** Partition key values counted one by one; past this, only their number is estimated (HLL). */
export const MAX_TRACKED_KEYS = 200_000;
const MAX_BIG_ITEMS = 100;
const MAX_TTL_SAMPLES = 20;
/** Log buckets of 2%: percentiles are read within 2% of the true size, whatever the item count. */
const BUCKET_RATIO = 1.02;
const LOG_RATIO = Math.log(BUCKET_RATIO);
/** The histogram's band edges in bytes: 1 KB … 256 KB, near the limit, the limit. */
const HISTOGRAM_EDGES = [
  0,
  1024,
  4096,
  16_384,
  65_536,
  131_072,
  262_144,
  NEAR_LIMIT_BYTES,
  ITEM_LIMIT_BYTES + 1,
];

export const TTL_CLASSES: readonly TtlClass[] = ['seconds', 'milliseconds', 'string', 'otherType', 'missing'];

/** How DynamoDB's TTL reads one value: only an N of epoch seconds ever expires an item. */
export function ttlClassOf(value: AttributeValue | undefined): TtlClass {
  if (value === undefined) return 'missing';
  if ('S' in value) return 'string';
  if (!('N' in value)) return 'otherType';
  // 11–13 digits is the pre-flight fix's rule for epoch ms (fix-plan.ts): seconds reach 11 digits in 5138.
  return /^[1-9]\d{10,12}(\.\d*)?$/.test(value.N) ? 'milliseconds' : 'seconds';
}

export interface KeyTally {
  items: number;
  bytes: number;
}

export interface BigItem {
  key: Item;
  bytes: number;
  label: string | undefined;
  largest: { attribute: string; bytes: number }[];
}

/** A GSI's projection as it is and as proposed, measured on the items the read finds in the index. */
export interface ProjectionPlan {
  index: string;
  /** The index's key attributes: an item is in the index when it has all of them. */
  indexKeys: string[];
  /** What the index copies besides the table's and its own keys: every attribute, or these. */
  current: 'ALL' | ReadonlySet<string>;
  proposed: ReadonlySet<string>;
}

export interface ProjectionTally {
  plan: ProjectionPlan;
  /** Items read that are in the index. */
  items: number;
  currentBytes: number;
  proposedBytes: number;
  /** Write units one write of each item costs the index (per started KB). */
  currentWriteUnits: number;
  proposedWriteUnits: number;
}

class SizeBands {
  readonly counts = new Map<number, number>();
  items = 0;
  max = 0;
  add(bytes: number): void {
    const band = bytes <= 1 ? 0 : Math.floor(Math.log(bytes) / LOG_RATIO);
    this.counts.set(band, (this.counts.get(band) ?? 0) + 1);
    this.items += 1;
    if (bytes > this.max) this.max = bytes;
  }
  /** The upper bound of the band holding the q-th item (never past the true maximum). */
  percentile(q: number): number {
    if (this.items === 0) return 0;
    const rank = Math.ceil(q * this.items);
    let seen = 0;
    for (const band of [...this.counts.keys()].sort((a, b) => a - b)) {
      seen += this.counts.get(band) ?? 0;
      if (seen >= rank) return Math.min(this.max, Math.round(BUCKET_RATIO ** (band + 1)));
    }
    return this.max;
  }
}

/**
 * One pass over a table's items (tagged form) for the Health tab: items and bytes per partition
 * key value, sizes per entity, the items near 400 KB with the attributes that make them big, and
 * how DynamoDB's TTL reads each item's TTL attribute. Keyed by data, so Maps throughout.
 */
export class HealthAccumulator {
  items = 0;
  bytes = 0;
  readonly keys = new Map<string, KeyTally>();
  readonly keySketch = new HyperLogLog();
  isKeyCapped = false;
  readonly sizes = new Map<string, SizeBands>();
  readonly all = new SizeBands();
  /** Items per histogram band (HISTOGRAM_EDGES). */
  private readonly bandCounts = new Array<number>(HISTOGRAM_EDGES.length - 1).fill(0);
  readonly big: BigItem[] = [];
  nearLimitCount = 0;
  readonly ttl = new Map<TtlClass, number>(TTL_CLASSES.map((c) => [c, 0]));
  readonly ttlSamples = new Map<TtlClass, Item[]>(TTL_CLASSES.map((c) => [c, []]));
  expiredPresent = 0;
  readonly projections: ProjectionTally[];
  /** The keys of the first expired-but-present items, to open them. */
  readonly expiredSamples: Item[] = [];
  private readonly labels: EntityLabels;

  constructor(
    private readonly partitionKey: string,
    private readonly sortKey: string | undefined,
    private readonly ttlAttribute: string | undefined,
    private readonly nowSeconds = Date.now() / 1000,
    projections: readonly ProjectionPlan[] = [],
  ) {
    this.labels = new EntityLabels(partitionKey, sortKey);
    this.projections = projections.map((plan) => ({
      plan,
      items: 0,
      currentBytes: 0,
      proposedBytes: 0,
      currentWriteUnits: 0,
      proposedWriteUnits: 0,
    }));
  }

  add(item: Item): void {
    const bytes = itemSize(item);
    this.items += 1;
    this.bytes += bytes;
    this.addKey(item, bytes);
    const label = this.labels.of(item);
    let bands = this.sizes.get(label ?? '');
    if (!bands) this.sizes.set(label ?? '', (bands = new SizeBands()));
    bands.add(bytes);
    this.all.add(bytes);
    let band = 0;
    while (bytes >= HISTOGRAM_EDGES[band + 1]!) band += 1;
    this.bandCounts[band] = (this.bandCounts[band] ?? 0) + 1;
    if (bytes >= NEAR_LIMIT_BYTES) this.addBig(item, bytes, label);
    if (this.ttlAttribute !== undefined) this.addTtl(item);
    for (const tally of this.projections) this.addProjected(tally, item, bytes);
  }

  private addProjected(tally: ProjectionTally, item: Item, bytes: number): void {
    const { indexKeys, current, proposed } = tally.plan;
    if (!indexKeys.every((name) => own(item, name) !== undefined)) return;
    const keys = new Set([this.partitionKey, ...(this.sortKey ? [this.sortKey] : []), ...indexKeys]);
    const sizeOf = (kept: ReadonlySet<string>) =>
      Object.keys(item)
        .filter((name) => keys.has(name) || kept.has(name))
        .reduce((sum, name) => sum + utf8Length(name) + valueSize(item[name]!), 0);
    const now = current === 'ALL' ? bytes : sizeOf(current);
    const then = sizeOf(proposed);
    tally.items += 1;
    tally.currentBytes += now;
    tally.proposedBytes += then;
    tally.currentWriteUnits += Math.max(1, Math.ceil(now / 1024));
    tally.proposedWriteUnits += Math.max(1, Math.ceil(then / 1024));
  }

  keyOf(item: Item): Item {
    const key: Item = Object.create(null) as Item;
    for (const name of this.sortKey ? [this.partitionKey, this.sortKey] : [this.partitionKey]) {
      const value = own(item, name);
      if (value) key[name] = value;
    }
    return key;
  }

  private addKey(item: Item, bytes: number): void {
    const text = keyText(own(item, this.partitionKey));
    this.keySketch.add(text);
    const tally = this.keys.get(text);
    if (tally) {
      tally.items += 1;
      tally.bytes += bytes;
    } else if (this.keys.size < MAX_TRACKED_KEYS) this.keys.set(text, { items: 1, bytes });
    else this.isKeyCapped = true;
  }

  private addBig(item: Item, bytes: number, label: string | undefined): void {
    this.nearLimitCount += 1;
    if (this.big.length >= MAX_BIG_ITEMS) return;
    const largest = Object.keys(item)
      .map((attribute) => ({ attribute, bytes: utf8Length(attribute) + valueSize(item[attribute]!) }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 3);
    this.big.push({ key: this.keyOf(item), bytes, label, largest });
  }

  private addTtl(item: Item): void {
    const value = own(item, this.ttlAttribute as string);
    const kind = ttlClassOf(value);
    this.ttl.set(kind, (this.ttl.get(kind) ?? 0) + 1);
    const samples = this.ttlSamples.get(kind)!;
    if (samples.length < MAX_TTL_SAMPLES) samples.push(this.keyOf(item));
    if (kind === 'seconds' && value && 'N' in value && Number(value.N) < this.nowSeconds) {
      this.expiredPresent += 1;
      if (this.expiredSamples.length < MAX_TTL_SAMPLES) this.expiredSamples.push(this.keyOf(item));
    }
  }

  histogram(): { from: number; to: number; items: number }[] {
    return this.bandCounts.map((items, i) => ({
      from: HISTOGRAM_EDGES[i]!,
      to: HISTOGRAM_EDGES[i + 1]! - 1,
      items,
    }));
  }

  bandsOf(label: string): SizeBands | undefined {
    return this.sizes.get(label);
  }
}

function own(item: Item, name: string): AttributeValue | undefined {
  return Object.prototype.hasOwnProperty.call(item, name) ? item[name] : undefined;
}

/** A key value as text: strings as they are, numbers as written, binary as `base64:…`. */
export function keyText(value: AttributeValue | undefined): string {
  if (!value) return '(missing)';
  if ('S' in value) return value.S;
  if ('N' in value) return value.N;
  if ('B' in value) return `base64:${value.B}`;
  return JSON.stringify(value);
}
