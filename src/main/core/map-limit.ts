/**
 * `fn` over the items with at most `limit` running at once, results in the items' order. After
 * one failure the whole list fails, so the other lanes stop taking items.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  const queue = items.entries(); // shared by the lanes: each takes the next unclaimed item
  let hasFailed = false;
  const lane = async (): Promise<void> => {
    for (const [index, item] of queue) {
      if (hasFailed) return;
      try {
        results[index] = await fn(item);
      } catch (error) {
        hasFailed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
