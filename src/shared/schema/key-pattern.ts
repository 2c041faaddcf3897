/**
 * The key shape text the Schema view reports for an item's keys in the table or an index:
 * `PK=USER#… SK=ORDER#…`, or for a multi-attribute index every partition attribute then every
 * sort attribute in KeySchema order (`tenant=… region=… day=… seq=<number>`). Written in main
 * (schema-groups.ts) and read back by name in the renderer's diagram, so both sides use these two.
 */
export function keyPatternText(names: readonly string[], shapes: readonly string[]): string {
  return names.map((name, i) => `${name}=${shapes[i] ?? ''}`).join(' ');
}

/**
 * The shape of each named attribute in a key pattern, in the order given; undefined where the
 * pattern does not name it. Names are found in order, so a name holding a space or `=` is read
 * by the names around it, never by splitting the text.
 */
export function keyPatternShapes(pattern: string, names: readonly string[]): (string | undefined)[] {
  const out: (string | undefined)[] = names.map(() => undefined);
  const first = names[0];
  if (first === undefined || !pattern.startsWith(`${first}=`)) return out;
  let start = first.length + 1;
  for (let i = 0; i < names.length; i++) {
    const next = names[i + 1];
    const cut = next === undefined ? -1 : pattern.indexOf(` ${next}=`, start);
    if (cut < 0) {
      out[i] = pattern.slice(start);
      return out;
    }
    out[i] = pattern.slice(start, cut);
    start = cut + (next as string).length + 2;
  }
  return out;
}
