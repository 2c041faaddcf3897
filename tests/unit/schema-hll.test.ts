import { describe, expect, it } from 'vitest';
import { HyperLogLog } from '../../src/main/schema/hll';
import { pickDistinct, planSample } from '../../src/main/schema/sample-plan';

/** 2^11 registers: standard error 1.04/√2048 ≈ 2.3%; three standard errors bound every case. */
const BOUND = 3 * (1.04 / Math.sqrt(2048));

describe('HyperLogLog against exact counts', () => {
  it.each([1, 10, 100, 1_000, 5_000, 20_000, 100_000])('estimates %i distinct values', (n) => {
    const sketch = new HyperLogLog();
    const exact = new Set<string>();
    for (let i = 0; i < n * 2; i++) {
      // Every value twice, in a shape real keys have: repeats never raise the estimate.
      const value = `USER#${(i % n).toString(36)}-${(i % n) * 7919}`;
      sketch.add(value);
      exact.add(value);
    }
    expect(exact.size).toBe(n);
    const error = Math.abs(sketch.estimate() - n) / n;
    expect(error).toBeLessThanOrEqual(n < 100 ? 0.02 : BOUND);
  });

  it('merges two sketches into the sketch of the union, also through JSON', () => {
    const a = new HyperLogLog();
    const b = new HyperLogLog();
    const both = new HyperLogLog();
    for (let i = 0; i < 30_000; i++) {
      const value = `v${i}`;
      (i < 20_000 ? a : b).add(value);
      if (i >= 10_000 && i < 20_000) b.add(value); // overlap 10k..20k
      both.add(value);
    }
    const merged = HyperLogLog.fromJSON(JSON.parse(JSON.stringify(a)) as string);
    merged.merge(b);
    expect(merged.estimate()).toBe(both.estimate());
    expect(Math.abs(merged.estimate() - 30_000) / 30_000).toBeLessThanOrEqual(BOUND);
  });
});

describe('sample plan', () => {
  it('picks distinct segments inside TotalSegments, about one page of items per segment', () => {
    const plan = planSample(2_000_000, 1000, 40);
    expect(plan.pageLimit).toBe(25);
    expect(plan.totalSegments).toBe(80_000);
    expect(new Set(plan.segments).size).toBe(40);
    expect(plan.segments.every((s) => s >= 0 && s < plan.totalSegments)).toBe(true);
  });

  it('reads every segment of a table smaller than the sample', () => {
    const plan = planSample(300, 1000, 40);
    expect(plan.totalSegments).toBe(40);
    expect(plan.segments).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('draws segments uniformly', () => {
    let state = 7;
    const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const hits = new Array<number>(10).fill(0);
    for (let run = 0; run < 2000; run++) for (const s of pickDistinct(3, 10, random)) hits[s]! += 1;
    for (const h of hits) expect(Math.abs(h - 600)).toBeLessThan(90);
  });
});
