import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Verifier } from '../../../src/main/dynamo/copy/copy-verify';
import type { SdkItem } from '../../../src/main/dynamo/writes/put-items';
import type { KeySchema } from '../../../src/shared/ipc/tables';

const keys: KeySchema = { partitionKey: { name: 'pk', type: 'S' }, sortKey: { name: 'sk', type: 'N' } };

/** Items with distinct keys; the hostile name is an own attribute, as DynamoDB sends it. */
const items = fc
  .uniqueArray(fc.tuple(fc.string({ maxLength: 6 }), fc.integer({ min: 0, max: 50 })), {
    minLength: 1,
    maxLength: 30,
    selector: ([pk, sk]) => `${pk}\u0000${sk}`,
  })
  .map((pairs) =>
    pairs.map(([pk, sk]): SdkItem => {
      const item: SdkItem = { pk: { S: pk }, sk: { N: String(sk) }, ss: { SS: ['b', 'a'] } };
      Object.defineProperty(item, '__proto__', { value: { S: pk }, enumerable: true, writable: true });
      return item;
    }),
  );

/** Reads interleaved the way two parallel scans may deliver them. */
function interleave(source: SdkItem[], target: SdkItem[], picks: boolean[]): Verifier {
  const v = new Verifier(keys);
  let s = 0;
  let t = 0;
  for (let i = 0; s < source.length || t < target.length; i++) {
    const takeSource = t >= target.length || (s < source.length && (picks[i % picks.length] ?? true));
    if (takeSource) v.addSource(source[s++] as SdkItem);
    else v.addTarget(target[t++] as SdkItem);
  }
  return v;
}

describe('Verifier', () => {
  it('matches equal sides whatever the order of both reads, and the checksum is order-free', () => {
    fc.assert(
      fc.property(items, fc.array(fc.boolean(), { minLength: 1 }), (list, picks) => {
        const reordered = [...list].reverse().map((item) => {
          // Same item, attributes and set members in another order.
          const { ss, ...rest } = item;
          const moved: SdkItem = { ss: { SS: [...(ss?.SS ?? [])].reverse() }, ...rest };
          return moved;
        });
        const result = interleave(list, reordered, picks).result();
        expect(result).toMatchObject({
          sourceCount: list.length,
          targetCount: list.length,
          checksumsMatch: true,
          differingKeys: [],
        });
        expect(result.targetChecksum).toBe(result.sourceChecksum);
      }),
    );
  });

  it('names a changed and a missing item, and ignores target items the source lacks', () => {
    fc.assert(
      fc.property(items, fc.array(fc.boolean(), { minLength: 1 }), (list, picks) => {
        fc.pre(list.length >= 2);
        const [changed, missing, ...same] = list as [SdkItem, SdkItem, ...SdkItem[]];
        const target = [
          ...same,
          { ...changed, extra: { NULL: true } },
          { pk: { S: 'only in target' }, sk: { N: '999' } },
        ];
        const result = interleave(list, target, picks).result();
        expect(result.checksumsMatch).toBe(false);
        expect(result.sourceCount).toBe(list.length);
        expect(result.targetCount).toBe(list.length - 1);
        expect(result.differingKeys).toEqual([
          { pk: changed.pk, sk: changed.sk },
          { pk: missing.pk, sk: missing.sk },
        ]);
      }),
    );
  });

  it('counts numbers spelled differently as the same number, as DynamoDB does, and a different number as different', () => {
    const source: SdkItem[] = [
      { pk: { S: 'a' }, sk: { N: '1' }, total: { N: '1500.00' }, ns: { NS: ['1.50', '2'] } },
      { pk: { S: 'b' }, sk: { N: '2' }, total: { N: '1500' } },
    ];
    const target: SdkItem[] = [
      { pk: { S: 'a' }, sk: { N: '1' }, total: { N: '1500' }, ns: { NS: ['2.0', '1.5'] } },
      { pk: { S: 'b' }, sk: { N: '2' }, total: { N: '1500.01' } },
    ];
    const result = interleave(source, target, [true]).result();
    expect(result.checksumsMatch).toBe(false);
    expect(result.differingKeys).toEqual([{ pk: { S: 'b' }, sk: { N: '2' } }]);
    const same = interleave(source.slice(0, 1), target.slice(0, 1), [true]).result();
    expect(same.checksumsMatch).toBe(true);
    expect(same.targetChecksum).toBe(same.sourceChecksum);
  });
});
