/**
 * How a sample is drawn. DynamoDB has no random read, and the first page of a Scan is the first
 * partitions in hash order — one corner of the table. A parallel Scan's segments cut the key
 * space into equal slices, so the first page of N segments chosen at random out of many is a
 * sample spread over the whole table, at the cost of N small requests.
 */
export interface SamplePlan {
  totalSegments: number;
  segments: number[];
  /** Items asked of each segment's one page. */
  pageLimit: number;
}

export const DEFAULT_SAMPLE_SIZE = 1000;
export const DEFAULT_SAMPLE_SEGMENTS = 40;
/** DynamoDB's upper bound for TotalSegments. */
const MAX_TOTAL_SEGMENTS = 1_000_000;

export function planSample(
  itemCount: number,
  sampleSize = DEFAULT_SAMPLE_SIZE,
  segmentsWanted = DEFAULT_SAMPLE_SEGMENTS,
  random: () => number = Math.random,
): SamplePlan {
  const read = Math.max(1, Math.min(segmentsWanted, sampleSize));
  const pageLimit = Math.min(1000, Math.ceil(sampleSize / read));
  // About one page of items per segment, so a segment's first page is most of that segment.
  // ItemCount may be hours old (or 0 for a new table): then guess a count that spreads widely.
  const total =
    itemCount > 0
      ? Math.min(MAX_TOTAL_SEGMENTS, Math.max(read, Math.ceil(itemCount / pageLimit)))
      : read * 25;
  return { totalSegments: total, segments: pickDistinct(read, total, random), pageLimit };
}

/** k distinct numbers of 0..n-1, sorted (Floyd's algorithm: k draws whatever n is). */
export function pickDistinct(k: number, n: number, random: () => number): number[] {
  const chosen = new Set<number>();
  for (let j = n - k; j < n; j++) {
    const t = Math.floor(random() * (j + 1));
    chosen.add(chosen.has(t) ? j : t);
  }
  return [...chosen].sort((a, b) => a - b);
}
