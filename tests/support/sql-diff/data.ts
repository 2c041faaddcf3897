import type { AttributeValue, Item } from '../../../src/shared/dynamo/attribute-value';

/** A small seeded PRNG (mulberry32): the same seed gives the same items and statements anywhere. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

/** Declared type of a generated column; a value may still have another type (DynamoDB has no schema). */
export type ColType = 'N' | 'S' | 'BOOL';

export const COLUMNS: { name: string; type: ColType }[] = [
  { name: 'n1', type: 'N' },
  { name: 'n2', type: 'N' },
  { name: 's1', type: 'S' },
  { name: 's2', type: 'S' },
  { name: 'b1', type: 'BOOL' },
  // The join key: mostly small numbers, sometimes the same digits as a string, NULL or missing.
  { name: 'k', type: 'N' },
];

/**
 * Every attribute a generated item may hold: the columns above, and `u`, tb's unique key
 * (1, 2, 3, … in item order, or k1, k2, … when tidy; set without a draw), which makes
 * `a.k = b.u` a many-to-one join.
 */
const STORED: { name: string; type: ColType }[] = [...COLUMNS, { name: 'u', type: 'N' }];

/** Strings SQL engines agree on (spaces only as whitespace, no backslash, no case-folding oddities). */
export const STRINGS = [
  '',
  'a',
  'ab',
  'Abc',
  'abc',
  'b%',
  'x_y',
  'zeta',
  'é',
  'Ωmega',
  ' pad ',
  '10',
  '9',
  'A',
];

export function randomNumber(r: Random): string {
  const whole = r.int(0, r.chance(0.2) ? 5 : 60);
  const sign = r.chance(0.35) ? '-' : '';
  const places = r.pick([0, 0, 1, 2]);
  const fraction = places === 0 ? '' : `.${String(r.int(0, 10 ** places - 1)).padStart(places, '0')}`;
  // As DynamoDB stores it: no trailing zeros (it returns 4.10 as 4.1), no -0.
  const text = `${sign}${whole}${fraction}`.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
  return text === '-0' ? '0' : text;
}

function valueOf(r: Random, type: ColType, column: string, tidy: boolean): AttributeValue | undefined {
  const roll = r.next();
  if (roll < 0.1) return undefined;
  if (roll < 0.2) return { NULL: true };
  const actual: ColType =
    roll < 0.3 && !tidy ? r.pick((['N', 'S', 'BOOL'] as const).filter((t) => t !== type)) : type;
  if (column === 'k') {
    const key = String(r.int(1, 6));
    if (tidy) return { S: `k${key}` };
    return actual === 'N' ? { N: key } : actual === 'S' ? { S: key } : { BOOL: r.chance(0.5) };
  }
  if (actual === 'N') return { N: randomNumber(r) };
  if (actual === 'S') return { S: r.pick(STRINGS) };
  return { BOOL: r.chance(0.5) };
}

/**
 * Items with NULLs, missing attributes, mixed types, negative decimals and empty strings; when
 * `tidy`, every value present is of its column's type and the join key is text, as most real
 * tables are and as the engine's own loops need (see fast-paths.ts).
 */
export function randomItems(r: Random, prefix: string, count: number, tidy = false): Item[] {
  return Array.from({ length: count }, (_, i) => {
    const item: Item = { id: { S: `${prefix}${String(i).padStart(3, '0')}` } };
    for (const c of COLUMNS) {
      const v = valueOf(r, c.type, c.name, tidy);
      if (v) item[c.name] = v;
    }
    return item;
  });
}

export interface Dataset {
  ta: Item[];
  tb: Item[];
}

/** A third of the datasets are tidy (see randomItems), decided by the seed alone. */
export const isTidy = (seed: number): boolean => seed % 3 === 0;

/** Items for ta and tb, each between `fewest` and `most` of them. */
export function randomDataset(seed: number, fewest = 0, most = 14): Dataset {
  const r = new Random(seed);
  const tidy = isTidy(seed);
  const ta = randomItems(r, 'a', r.int(fewest, most), tidy);
  const tb = randomItems(r, 'b', r.int(fewest, most), tidy).map((item, i) => ({
    ...item,
    u: tidy ? { S: `k${i + 1}` } : { N: String(i + 1) },
  }));
  return { ta, tb };
}

/** A string as a SQL literal. */
export const sqlQuote = (s: string): string => `'${s.replace(/'/g, "''")}'`;

/** An item's string attribute as a SQL literal for DuckDB, NULL when missing or of another type. */
export const sqlText = (item: Item, name: string): string => {
  const v = item[name];
  return v && 'S' in v ? sqlQuote(v.S) : 'NULL';
};

/** An item's number attribute as a SQL literal for DuckDB, NULL when missing or of another type. */
export const sqlNumber = (item: Item, name: string): string => {
  const v = item[name];
  return v && 'N' in v ? v.N : 'NULL';
};

/**
 * DuckDB has typed columns, DynamoDB does not: each attribute c becomes c_n DECIMAL, c_s
 * VARCHAR, c_b BOOLEAN (the one of the value's type is set, the others NULL; all NULL for a NULL
 * or missing value) and c_x, the value's text as DynoTable writes it (for ||).
 */
export function duckTableSql(name: string, items: Item[]): string[] {
  const columns = [
    'id VARCHAR',
    ...STORED.flatMap((c) => [
      `${c.name}_n DECIMAL(18,2)`,
      `${c.name}_s VARCHAR`,
      `${c.name}_b BOOLEAN`,
      `${c.name}_x VARCHAR`,
    ]),
  ];
  const statements = [`CREATE OR REPLACE TABLE ${name} (${columns.join(', ')})`];
  if (items.length === 0) return statements;
  const rows = items.map((item) => {
    const cells = [sqlQuote((item.id as { S: string }).S)];
    for (const c of STORED) {
      const v = item[c.name];
      const n = v && 'N' in v ? v.N : 'NULL';
      const s = v && 'S' in v ? sqlQuote(v.S) : 'NULL';
      const b = v && 'BOOL' in v ? String(v.BOOL) : 'NULL';
      const x =
        v && 'N' in v
          ? sqlQuote(v.N)
          : v && 'S' in v
            ? sqlQuote(v.S)
            : v && 'BOOL' in v
              ? sqlQuote(String(v.BOOL))
              : 'NULL';
      cells.push(n, s, b, x);
    }
    return `(${cells.join(', ')})`;
  });
  statements.push(`INSERT INTO ${name} VALUES ${rows.join(', ')}`);
  return statements;
}
