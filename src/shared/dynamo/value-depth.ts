/** DynamoDB nests lists and maps at most 32 levels deep. */
export const MAX_DEPTH = 32;

/**
 * Where a value first goes past DynamoDB's nesting limit, as map keys and list indexes below
 * it, or undefined when it stays within. The value counts as level `depth`; its members one more.
 *
 * Iterative on purpose: a request may carry a value nested 100,000 levels, and walking it
 * recursively (as zod's recursive schema or a naive checker would) overflows the stack long
 * before anything can say "too deep". Shapes that are not lists or maps are left to the schema.
 */
export function tooDeepAt(value: unknown, depth = 1): (string | number)[] | undefined {
  const stack: { value: unknown; depth: number; path: (string | number)[] }[] = [{ value, depth, path: [] }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    if (next.depth > MAX_DEPTH) return next.path;
    const node = next.value;
    if (typeof node !== 'object' || node === null) continue;
    const list: unknown = 'L' in node ? node.L : undefined;
    const map: unknown = 'M' in node ? node.M : undefined;
    if (Array.isArray(list)) {
      for (let i = list.length - 1; i >= 0; i--)
        stack.push({ value: list[i], depth: next.depth + 1, path: [...next.path, i] });
    } else if (typeof map === 'object' && map !== null) {
      for (const name of Object.keys(map).reverse())
        stack.push({
          value: (map as Record<string, unknown>)[name],
          depth: next.depth + 1,
          path: [...next.path, name],
        });
    }
  }
  return undefined;
}

export const TOO_DEEP = `nested deeper than DynamoDB's limit of ${MAX_DEPTH} levels`;
