/**
 * An independent tally of attribute paths over items in DynamoDB's wire JSON (as DynamoDB Local
 * returns them, or generated): the oracle for the schema accumulator. Written from docs/SQL.md's
 * path rules, sharing no code with src/main/schema.
 */
export interface PathTally {
  items: Set<number>;
  types: Map<string, number>;
  strings: number;
  numbers: number[];
  distinct: Set<string>;
  setSizes: number[];
}

type Wire = Record<string, unknown>;

export const quotePathName = (name: string) =>
  /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `"${name.split('"').join('""')}"`;

export function tallyPaths(items: readonly Wire[]): Map<string, PathTally> {
  const out = new Map<string, PathTally>();
  const at = (path: string): PathTally => {
    let t = out.get(path);
    if (!t) {
      t = { items: new Set(), types: new Map(), strings: 0, numbers: [], distinct: new Set(), setSizes: [] };
      out.set(path, t);
    }
    return t;
  };
  const visit = (path: string, value: Wire, index: number) => {
    const t = at(path);
    t.items.add(index);
    const type = Object.keys(value)[0] as string;
    const inner = value[type];
    t.types.set(type, (t.types.get(type) ?? 0) + 1);
    if (type === 'S') {
      t.strings++;
      t.distinct.add(`S:${inner as string}`);
    } else if (type === 'N') {
      t.numbers.push(Number(inner));
      t.distinct.add(`N:${Number(inner)}`);
    } else if (type === 'B') t.distinct.add(`B:${String(inner)}`);
    else if (type === 'BOOL') t.distinct.add(`BOOL:${String(inner)}`);
    else if (type === 'NULL') t.distinct.add('NULL');
    else if (type === 'SS') {
      const ss = inner as string[];
      t.setSizes.push(ss.length);
      t.strings += ss.length;
      for (const s of ss) t.distinct.add(`S:${s}`);
    } else if (type === 'NS') {
      const ns = inner as string[];
      t.setSizes.push(ns.length);
      for (const n of ns) {
        t.numbers.push(Number(n));
        t.distinct.add(`N:${Number(n)}`);
      }
    } else if (type === 'BS') {
      const bs = inner as string[];
      t.setSizes.push(bs.length);
      for (const b of bs) t.distinct.add(`B:${b}`);
    } else if (type === 'M') {
      const map = inner as Record<string, Wire>;
      for (const name of Object.keys(map)) visit(`${path}.${quotePathName(name)}`, map[name] as Wire, index);
    } else if (type === 'L') for (const element of inner as Wire[]) visit(`${path}[]`, element, index);
  };
  items.forEach((item, index) => {
    for (const name of Object.keys(item)) visit(quotePathName(name), item[name] as Wire, index);
  });
  return out;
}
