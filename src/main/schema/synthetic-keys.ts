import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { KeySchema } from '../../shared/ipc/tables';
import { isMultiAttribute } from '../../shared/dynamo/key-model';
import { own } from './schema-groups';

type SdkItem = Record<string, SdkValue>;

/**
 * The advisor's part of the Schema view's walk (issue 28 item 4): for every global index keyed
 * on one attribute of each kind, how its key values are built. `TENANT#t1#REGION#eu` splits at
 * `#` into parts; a part another top-level attribute of the same item holds (`tenant = t1`)
 * becomes a slot named after that attribute, an upper-case word stays a label, any other part
 * is a slot no attribute holds yet. Each item adds one signature per index: the shape of its
 * partition and sort values and which attribute filled each slot. State is plain JSON and
 * merge()-able like the rest of the accumulator.
 */
export interface SyntheticIndexState {
  index: string;
  partition: string;
  sort?: string;
  /** Items holding the index's keys. */
  items: number;
  /** Bytes of the partition and the sort attribute (name + value) over those items. */
  bytes: [number, number];
  /** Write units to put each item once: as stored, without the partition attribute, without the sort, without both. */
  writeUnits: [number, number, number, number];
  /** `signature` → items; see signatureOf. */
  signatures: [string, number][];
  /** Items whose signature was past the bound. */
  untracked: number;
  /**
   * Items without the index's keys, by the key-legal attributes they hold: `[["N","seq"],
   * ["S","tenant"]]` (JSON of the sorted S/N/B top-level attributes) → items. A proposed key
   * counts exactly the items that would newly enter its index. Absent in reads saved before.
   */
  outside?: [string, number][];
  /** Items without the index's keys whose attributes were past the bound: the count is then at most. */
  outsideUntracked?: number;
}

export interface SyntheticKeysState {
  indexes: SyntheticIndexState[];
}

const MAX_SIGNATURES = 32;
/** Single-table designs have a few shapes per entity; past this the newcomers count is an upper bound. */
const MAX_OUTSIDE = 256;
/** An attribute holding a value, and its slot text. */
interface Holder {
  name: string;
  slot: string;
}
const LABEL = /^[A-Z][A-Z0-9_]*$/;
/**
 * A part of a key's shape: a label word, a slot filled by an attribute (`["S","tenant"]` as JSON,
 * which escapes every control character, so the separators below never occur inside a name), or
 * `{}` for a part no attribute holds. Parts are joined by PART_SEP, partition and sort by SIGNATURE_SEP.
 */
export const SIGNATURE_SEP = '\u0001';
export const PART_SEP = '\u0002';

const units = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

export function emptySyntheticKeys(
  indexes: readonly { name: string; kind?: string; keys: KeySchema }[],
): SyntheticKeysState {
  return {
    indexes: indexes
      .filter((i) => i.kind !== 'LSI' && !isMultiAttribute(i.keys))
      .map((i) => ({
        index: i.name,
        partition: i.keys.partitionKey.name,
        ...(i.keys.sortKey ? { sort: i.keys.sortKey.name } : {}),
        items: 0,
        bytes: [0, 0],
        writeUnits: [0, 0, 0, 0],
        signatures: [],
        untracked: 0,
        outside: [],
        outsideUntracked: 0,
      })),
  };
}

export class SyntheticKeys {
  private readonly signatures: Map<string, number>[];
  private readonly outside: Map<string, number>[];
  /** Every index's key attributes: a slot is filled by another attribute where one holds the part. */
  private readonly keyNames: ReadonlySet<string>;
  private values: Map<string, Holder[]> | undefined;

  constructor(readonly state: SyntheticKeysState) {
    this.signatures = state.indexes.map((i) => new Map(i.signatures));
    this.outside = state.indexes.map((i) => new Map(i.outside ?? []));
    this.keyNames = new Set(
      state.indexes.flatMap((i) => [i.partition, ...(i.sort === undefined ? [] : [i.sort])]),
    );
  }

  /** An item and its size (as the walk counted it). */
  add(item: SdkItem, itemBytes: number): void {
    this.values = undefined;
    let held: string | undefined;
    this.state.indexes.forEach((index, i) => {
      const pk = own(item, index.partition);
      const sk = index.sort === undefined ? undefined : own(item, index.sort);
      if (!pk || (index.sort !== undefined && !sk)) {
        held ??= keyLegalAttributes(item);
        bump(this.outside[i] as Map<string, number>, held, 1, MAX_OUTSIDE, () => {
          index.outsideUntracked = (index.outsideUntracked ?? 0) + 1;
        });
        return;
      }
      index.items += 1;
      const pBytes = utf8(index.partition) + valueBytes(pk);
      const sBytes = index.sort === undefined || !sk ? 0 : utf8(index.sort) + valueBytes(sk);
      index.bytes[0] += pBytes;
      index.bytes[1] += sBytes;
      const w = index.writeUnits;
      w[0] += units(itemBytes);
      w[1] += units(itemBytes - pBytes);
      w[2] += units(itemBytes - sBytes);
      w[3] += units(itemBytes - pBytes - sBytes);
      const skip = (name: string) => name === index.partition || name === index.sort;
      const signature = [this.shapeOf(item, pk, skip), ...(sk ? [this.shapeOf(item, sk, skip)] : [])].join(
        SIGNATURE_SEP,
      );
      bump(
        this.signatures[i] as Map<string, number>,
        signature,
        1,
        MAX_SIGNATURES,
        () => (index.untracked += 1),
      );
    });
  }

  merge(other: SyntheticKeysState): void {
    for (const from of other.indexes) {
      const i = this.state.indexes.findIndex((x) => x.index === from.index);
      const into = this.state.indexes[i];
      if (!into) continue;
      into.items += from.items;
      into.untracked += from.untracked;
      into.bytes = [into.bytes[0] + from.bytes[0], into.bytes[1] + from.bytes[1]];
      into.writeUnits = into.writeUnits.map(
        (n, k) => n + (from.writeUnits[k] ?? 0),
      ) as SyntheticIndexState['writeUnits'];
      for (const [s, n] of from.signatures)
        bump(this.signatures[i] as Map<string, number>, s, n, MAX_SIGNATURES, () => (into.untracked += n));
      if (from.outside === undefined) {
        // A part read before outside attributes were counted (how many, unknown): the newcomer
        // count is then a bound.
        into.outsideUntracked = (into.outsideUntracked ?? 0) + 1;
        continue;
      }
      into.outsideUntracked = (into.outsideUntracked ?? 0) + (from.outsideUntracked ?? 0);
      for (const [s, n] of from.outside)
        bump(this.outside[i] as Map<string, number>, s, n, MAX_OUTSIDE, () => {
          into.outsideUntracked = (into.outsideUntracked ?? 0) + n;
        });
    }
  }

  toJSON(): SyntheticKeysState {
    return {
      indexes: this.state.indexes.map((index, i) => ({
        ...index,
        signatures: [...(this.signatures[i] ?? [])],
        outside: [...(this.outside[i] ?? [])],
      })),
    };
  }

  /** A key value's shape: its parts (see PART_SEP), '' for a value that is not a `#`-joined string. */
  private shapeOf(item: SdkItem, value: SdkValue, skip: (name: string) => boolean): string {
    const text = value.S;
    if (text === undefined || !text.includes('#')) return '';
    const values = this.valuesOf(item);
    return text
      .split('#')
      .map((part) => {
        const holders = values.get(part)?.filter((h) => !skip(h.name)) ?? [];
        const holder = holders.find((h) => !this.keyNames.has(h.name)) ?? holders[0];
        return holder?.slot ?? (LABEL.test(part) ? part : '{}');
      })
      .join(PART_SEP);
  }

  /** The item's top-level string and number values → the slots of the attributes holding each. */
  private valuesOf(item: SdkItem): Map<string, Holder[]> {
    if (this.values) return this.values;
    const values = new Map<string, Holder[]>();
    for (const name of Object.keys(item)) {
      const v = item[name] as SdkValue;
      const text = v.S ?? v.N;
      if (text === undefined || text === '' || text.includes('#')) continue;
      const holder = { name, slot: JSON.stringify([v.S !== undefined ? 'S' : 'N', name]) };
      const holders = values.get(text);
      if (holders) holders.push(holder);
      else values.set(text, [holder]);
    }
    this.values = values;
    return values;
  }
}

function valueBytes(v: SdkValue): number {
  if (v.S !== undefined) return utf8(v.S);
  if (v.N !== undefined) return Math.ceil(v.N.length / 2) + 1;
  if (v.B !== undefined) return v.B.byteLength;
  return 0;
}

function bump(counts: Map<string, number>, key: string, by: number, max: number, overflow: () => void): void {
  const seen = counts.get(key);
  if (seen !== undefined || counts.size < max) counts.set(key, (seen ?? 0) + by);
  else overflow();
}

/** The item's top-level attributes a key could use (S, N or B), as sorted `[type, name]` JSON. */
function keyLegalAttributes(item: SdkItem): string {
  const held: [string, string][] = [];
  for (const name of Object.keys(item).sort()) {
    const v = item[name] as SdkValue;
    const type = v.S !== undefined ? 'S' : v.N !== undefined ? 'N' : v.B !== undefined ? 'B' : undefined;
    if (type) held.push([type, name]);
  }
  return JSON.stringify(held);
}
