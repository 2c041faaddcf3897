import { createHash } from 'node:crypto';
import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../../shared/dynamo/attribute-value';
import { canonicalNumber } from '../../../shared/dynamo/number';
import type { CopyVerification } from '../../../shared/ipc/copy';
import type { KeySchema } from '../../../shared/ipc/tables';
import { sdkKeyText, type SdkItem } from '../writes/put-items';

const MAX_DIFFERING = 100;
const MASK = (1n << 64n) - 1n;

function bytes(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
}

/**
 * One text per value that two equal items share whatever their attribute or set order:
 * names sorted, set members sorted, binary as base64, and numbers in one spelling per value:
 * DynamoDB compares 1500.00 and 1500 as the same number, and DynamoDB Local (unlike the service)
 * returns a number as it was written, so comparing their text called equal items different.
 */
export function canonicalValue(value: SdkValue): string {
  if (value.S !== undefined) return `S${JSON.stringify(value.S)}`;
  if (value.N !== undefined) return `N${canonicalNumber(value.N)}`;
  if (value.B !== undefined) return `B${bytes(value.B)}`;
  if (value.BOOL !== undefined) return value.BOOL ? 'T' : 'F';
  if (value.NULL !== undefined) return 'U';
  if (value.SS !== undefined) return `SS${JSON.stringify([...value.SS].sort())}`;
  if (value.NS !== undefined) return `NS${JSON.stringify(value.NS.map(canonicalNumber).sort())}`;
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
 * The verification pass: every item the source yields (mapped as it was copied) and every
 * target item is hashed by its canonical form and kept by key, in whatever order the two reads
 * deliver them (they run side by side); the target items whose key the source has are compared.
 * Checksums are sums of item hashes (mod 2^64), so order never matters; the keys whose items
 * differ or are missing are listed. Both maps hold a key and a 64-bit hash per item.
 */
export class Verifier {
  private readonly source = new Map<string, bigint>();
  private readonly target = new Map<string, bigint>();

  constructor(private readonly keys: KeySchema) {}

  /** Two source items mapped to one key: the target can hold only one, the later write. */
  addSource(item: SdkItem): void {
    this.source.set(sdkKeyText(item, this.keys), itemHash(item));
  }

  addTarget(item: SdkItem): void {
    this.target.set(sdkKeyText(item, this.keys), itemHash(item));
  }

  result(): CopyVerification {
    let sourceSum = 0n;
    let targetSum = 0n;
    let targetCount = 0;
    const differing: Item[] = [];
    const missing: string[] = [];
    for (const [key, hash] of this.source) {
      sourceSum = (sourceSum + hash) & MASK;
      const found = this.target.get(key);
      if (found === undefined) {
        if (missing.length < MAX_DIFFERING) missing.push(key);
        continue;
      }
      targetCount++;
      targetSum = (targetSum + found) & MASK;
      if (found !== hash && differing.length < MAX_DIFFERING) differing.push(JSON.parse(key) as Item);
    }
    const differingKeys = [...differing, ...missing.map((key) => JSON.parse(key) as Item)].slice(
      0,
      MAX_DIFFERING,
    );
    const sourceChecksum = sourceSum.toString(16).padStart(16, '0');
    const targetChecksum = targetSum.toString(16).padStart(16, '0');
    return {
      sourceCount: this.source.size,
      targetCount,
      sourceChecksum,
      targetChecksum,
      checksumsMatch: this.source.size === targetCount && sourceChecksum === targetChecksum,
      differingKeys,
    };
  }
}
