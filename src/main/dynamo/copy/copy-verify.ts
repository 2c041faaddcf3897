import { createHash } from 'node:crypto';
import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import type { CopyVerification } from '../../../shared/ipc/copy';
import type { KeySchema } from '../../../shared/ipc/tables';
import { sdkKeyOf, sdkKeyText, type SdkItem } from './copy-writer';

const MAX_DIFFERING = 100;
const MASK = (1n << 64n) - 1n;

function bytes(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
}

/**
 * One text per value that two equal items share whatever their attribute or set order:
 * names sorted, set members sorted, numbers as DynamoDB stores them (both sides were read
 * from DynamoDB, which normalises numbers), binary as base64.
 */
export function canonicalValue(value: SdkValue): string {
  if (value.S !== undefined) return `S${JSON.stringify(value.S)}`;
  if (value.N !== undefined) return `N${value.N}`;
  if (value.B !== undefined) return `B${bytes(value.B)}`;
  if (value.BOOL !== undefined) return value.BOOL ? 'T' : 'F';
  if (value.NULL !== undefined) return 'U';
  if (value.SS !== undefined) return `SS${JSON.stringify([...value.SS].sort())}`;
  if (value.NS !== undefined) return `NS${JSON.stringify([...value.NS].sort())}`;
  if (value.BS !== undefined) return `BS${JSON.stringify(value.BS.map(bytes).sort())}`;
  if (value.L !== undefined) return `L[${value.L.map(canonicalValue).join(',')}]`;
  if (value.M !== undefined) return `M${canonicalItem(value.M)}`;
  throw new Error(`Unknown DynamoDB attribute value type: ${Object.keys(value).join(',')}`);
}

export function canonicalItem(item: SdkItem): string {
  const names = Object.keys(item).sort();
  return `{${names.map((n) => `${JSON.stringify(n)}:${canonicalValue(item[n] as SdkValue)}`).join(',')}}`;
}

function itemHash(item: SdkItem): bigint {
  return BigInt(`0x${createHash('sha256').update(canonicalItem(item)).digest('hex').slice(0, 16)}`);
}

/**
 * The verification pass: every item the source yields (mapped as it was copied) is hashed by
 * its canonical form and kept by key; then every target item with one of those keys is hashed
 * the same way. Checksums are sums of item hashes (mod 2^64), so order never matters; the keys
 * whose items differ or are missing are listed.
 */
export class Verifier {
  private readonly expected = new Map<string, bigint>();
  private sourceSum = 0n;
  private targetSum = 0n;
  private targetCount = 0;
  private readonly differing: Item[] = [];
  /** Source keys not seen in the target yet: what is left is missing there. */
  private readonly unseen = new Set<string>();

  constructor(private readonly keys: KeySchema) {}

  addSource(item: SdkItem): void {
    const key = sdkKeyText(item, this.keys);
    const hash = itemHash(item);
    const earlier = this.expected.get(key);
    // Two source items mapped to one key: the target can hold only one, the later write.
    if (earlier !== undefined) this.sourceSum = (this.sourceSum - earlier + MASK + 1n) & MASK;
    this.expected.set(key, hash);
    this.unseen.add(key);
    this.sourceSum = (this.sourceSum + hash) & MASK;
  }

  addTarget(item: SdkItem): void {
    const key = sdkKeyText(item, this.keys);
    const want = this.expected.get(key);
    if (want === undefined) return;
    const hash = itemHash(item);
    this.targetCount++;
    this.targetSum = (this.targetSum + hash) & MASK;
    this.unseen.delete(key);
    if (hash !== want && this.differing.length < MAX_DIFFERING)
      this.differing.push(sdkKeyOf(item, this.keys));
  }

  result(): CopyVerification {
    const differingKeys = [...this.differing];
    for (const key of this.unseen) {
      if (differingKeys.length >= MAX_DIFFERING) break;
      differingKeys.push(JSON.parse(key) as Item);
    }
    const sourceChecksum = this.sourceSum.toString(16).padStart(16, '0');
    const targetChecksum = this.targetSum.toString(16).padStart(16, '0');
    return {
      sourceCount: this.expected.size,
      targetCount: this.targetCount,
      sourceChecksum,
      targetChecksum,
      checksumsMatch: this.expected.size === this.targetCount && sourceChecksum === targetChecksum,
      differingKeys,
    };
  }
}
