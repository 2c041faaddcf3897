import { COLUMNS, type ColType, type Random, randomNumber, STRINGS } from './data';

/**
 * Generated expressions, rendered twice: as DynoTable SQL, and as DuckDB SQL that spells out
 * DynoTable's documented rules where they differ from DuckDB's (docs/SQL.md, "Values"):
 * - every value is a triple (number, string, boolean) of which at most one is set, because an
 *   attribute may hold any type; NULL and missing are both NULL;
 * - `=` across types is false, `<`/BETWEEN across types is NULL (DynamoDB's rules);
 * - IN is a type-aware membership test; an empty subquery makes IN false even for NULL;
 * - arithmetic and string functions on a value of another type give NULL.
 * - a date is ISO text (CAST AS DATE gives YYYY-MM-DD, AS TIMESTAMP the full UTC text), and a
 *   date or time that does not exist (2023-02-29, month 13, 25:00) is NULL, as DuckDB's TRY_CAST.
 * Deliberately not generated (known, documented differences, not bugs): division and AVG
 * digits (DynoTable is exact to 38 digits, DuckDB divides in doubles), `||` over computed
 * numbers (DuckDB prints DECIMAL scale), LIKE with backslashes (DynoTable's default escape).
 */
export type Kind = 'num' | 'str' | 'bool' | 'any';

export type GExpr =
  | { kind: 'col'; alias: string; name: string }
  | { kind: 'num'; text: string }
  | { kind: 'str'; value: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'null' }
  | { kind: 'arith'; op: '+' | '-' | '*'; left: GExpr; right: GExpr }
  | { kind: 'neg'; operand: GExpr }
  | { kind: 'fn'; name: 'ABS' | 'ROUND' | 'CAST_INT' | 'UPPER' | 'LOWER' | 'LENGTH' | 'TRIM'; arg: GExpr }
  | { kind: 'replace'; arg: GExpr; from: string; to: string }
  | { kind: 'date'; fn: 'CAST_DATE' | 'CAST_TIMESTAMP' | 'TO_EPOCH_MS'; text: string }
  | { kind: 'concat'; left: GExpr; right: GExpr }
  | { kind: 'coalesce'; left: GExpr; right: GExpr }
  | { kind: 'cmp'; op: '=' | '<>' | '<' | '<=' | '>' | '>='; left: GExpr; right: GExpr }
  | { kind: 'between'; operand: GExpr; low: GExpr; high: GExpr; negated: boolean }
  | { kind: 'in'; operand: GExpr; items: GExpr[]; negated: boolean }
  | { kind: 'isnull'; operand: GExpr; negated: boolean }
  | { kind: 'like'; operand: GExpr; pattern: string; negated: boolean }
  | { kind: 'logic'; op: 'AND' | 'OR'; left: GExpr; right: GExpr }
  | { kind: 'not'; operand: GExpr }
  | { kind: 'case'; when: GExpr; then: GExpr; otherwise: GExpr };

/** A DuckDB value as three SQL fragments: its number, string and boolean parts. */
export interface Triple {
  n: string;
  s: string;
  b: string;
}

const NONE = 'NULL';
const nums = (n: string): Triple => ({ n, s: NONE, b: NONE });
const strs = (s: string): Triple => ({ n: NONE, s, b: NONE });
const bools = (b: string): Triple => ({ n: NONE, s: NONE, b });
const quote = (s: string): string => `'${s.replace(/'/g, "''")}'`;

export function tagOf(t: Triple): string {
  return `(CASE WHEN (${t.n}) IS NOT NULL THEN 'N' WHEN (${t.s}) IS NOT NULL THEN 'S' WHEN (${t.b}) IS NOT NULL THEN 'B' END)`;
}

/** DynoTable's `=`: NULL if either is NULL, false across types, else equality. */
export function duckEquals(x: Triple, y: Triple): string {
  const [tx, ty] = [tagOf(x), tagOf(y)];
  return `(CASE WHEN ${tx} IS NULL OR ${ty} IS NULL THEN NULL WHEN ${tx} <> ${ty} THEN false ELSE COALESCE((${x.n}) = (${y.n}), (${x.s}) = (${y.s}), (${x.b}) = (${y.b})) END)`;
}

/** DynoTable's comparison of two triples: `=` by duckEquals, an order by duckOrder. */
export function duckCompare(op: '=' | '<' | '>' | '<=', x: Triple, y: Triple): string {
  return op === '=' ? duckEquals(x, y) : duckOrder(op, x, y);
}

function duckOrder(op: string, x: Triple, y: Triple): string {
  const [tx, ty] = [tagOf(x), tagOf(y)];
  return `(CASE WHEN ${tx} IS NULL OR ${ty} IS NULL OR ${tx} <> ${ty} THEN NULL ELSE COALESCE((${x.n}) ${op} (${y.n}), (${x.s}) ${op} (${y.s}), (${x.b}) ${op} (${y.b})) END)`;
}

/**
 * MIN or MAX as DynoTable takes it (docs/SQL.md): MIN prefers numbers, and without numbers
 * booleans sort before strings; MAX prefers numbers, then strings, then booleans.
 */
export function duckExtreme(fn: 'MIN' | 'MAX', t: Triple): Triple {
  const [n, s, b] = [`${fn}(${t.n})`, `${fn}(${t.s})`, `${fn}(${t.b})`];
  return fn === 'MIN'
    ? {
        n,
        s: `(CASE WHEN ${n} IS NULL AND ${b} IS NULL THEN ${s} END)`,
        b: `(CASE WHEN ${n} IS NULL THEN ${b} END)`,
      }
    : {
        n,
        s: `(CASE WHEN ${n} IS NULL THEN ${s} END)`,
        b: `(CASE WHEN ${n} IS NULL AND ${s} IS NULL THEN ${b} END)`,
      };
}

export function toDuck(e: GExpr): Triple {
  switch (e.kind) {
    case 'col': {
      const c = `${e.alias}.${e.name}`;
      return { n: `${c}_n`, s: `${c}_s`, b: `${c}_b` };
    }
    case 'num':
      return nums(e.text.startsWith('-') ? `(${e.text})` : e.text);
    case 'str':
      return strs(quote(e.value));
    case 'bool':
      return bools(String(e.value));
    case 'null':
      return { n: NONE, s: NONE, b: NONE };
    case 'arith':
      return nums(`(${toDuck(e.left).n} ${e.op} ${toDuck(e.right).n})`);
    case 'neg':
      return nums(`(- ${toDuck(e.operand).n})`);
    case 'fn': {
      const a = toDuck(e.arg);
      if (e.name === 'ABS') return nums(`ABS(${a.n})`);
      if (e.name === 'ROUND') return nums(`ROUND(${a.n})`);
      // CAST converts strings and booleans too (a string that is no number is NULL).
      if (e.name === 'CAST_INT')
        return nums(
          `CAST(COALESCE(${a.n}, TRY_CAST(TRIM(${a.s}) AS DECIMAL(38,10)), CAST(${a.b} AS INTEGER)) AS HUGEINT)`,
        );
      if (e.name === 'LENGTH') return nums(`LENGTH(${a.s})`);
      return strs(`${e.name}(${a.s})`);
    }
    case 'replace':
      return strs(`REPLACE(${toDuck(e.arg).s}, ${quote(e.from)}, ${quote(e.to)})`);
    case 'date': {
      const instant = `TRY_CAST(${quote(e.text)} AS TIMESTAMP)`;
      if (e.fn === 'TO_EPOCH_MS') return nums(`epoch_ms(${instant})`);
      // The date of the instant the text names: DuckDB's own DATE cast drops the time unread
      // (2024-01-01 25:00 is a date there), and 24:00 would not move to the next day.
      if (e.fn === 'CAST_DATE') return strs(`CAST(CAST(${instant} AS DATE) AS VARCHAR)`);
      return strs(`strftime(${instant}, '%Y-%m-%dT%H:%M:%S.%gZ')`);
    }
    case 'concat':
      return strs(`(${textOf(e.left)} || ${textOf(e.right)})`);
    case 'coalesce': {
      const [x, y] = [toDuck(e.left), toDuck(e.right)];
      const pick = (a: string, b: string) => `(CASE WHEN ${tagOf(x)} IS NOT NULL THEN ${a} ELSE ${b} END)`;
      return { n: pick(x.n, y.n), s: pick(x.s, y.s), b: pick(x.b, y.b) };
    }
    case 'cmp': {
      const [x, y] = [toDuck(e.left), toDuck(e.right)];
      if (e.op === '=') return bools(duckEquals(x, y));
      if (e.op === '<>') return bools(`(NOT ${duckEquals(x, y)})`);
      return bools(duckOrder(e.op, x, y));
    }
    case 'between': {
      const v = toDuck(e.operand);
      const inside = `(${duckOrder('<=', toDuck(e.low), v)} AND ${duckOrder('<=', v, toDuck(e.high))})`;
      return bools(e.negated ? `(NOT ${inside})` : inside);
    }
    case 'in': {
      const v = toDuck(e.operand);
      const any = `(${e.items.map((item) => duckEquals(v, toDuck(item))).join(' OR ')})`;
      return bools(e.negated ? `(NOT ${any})` : any);
    }
    case 'isnull':
      return bools(`(${tagOf(toDuck(e.operand))} IS ${e.negated ? 'NOT ' : ''}NULL)`);
    case 'like':
      return bools(`(${toDuck(e.operand).s} ${e.negated ? 'NOT ' : ''}LIKE ${quote(e.pattern)})`);
    case 'logic':
      return bools(`(${toDuck(e.left).b} ${e.op} ${toDuck(e.right).b})`);
    case 'not':
      return bools(`(NOT ${toDuck(e.operand).b})`);
    case 'case': {
      const [w, t, o] = [toDuck(e.when).b, toDuck(e.then), toDuck(e.otherwise)];
      const pick = (a: string, b: string) => `(CASE WHEN ${w} THEN ${a} ELSE ${b} END)`;
      return { n: pick(t.n, o.n), s: pick(t.s, o.s), b: pick(t.b, o.b) };
    }
  }
}

/**
 * Text of a value for `||` (DynoTable's toText): a column's stored text; otherwise the string,
 * the number without trailing zeros (as DynamoDB writes numbers), or true/false.
 */
function textOf(e: GExpr): string {
  if (e.kind === 'col') return `${e.alias}.${e.name}_x`;
  const t = toDuck(e);
  const number = `regexp_replace(regexp_replace(CAST(${t.n} AS VARCHAR), '(\\.\\d*?)0+$', '\\1'), '\\.$', '')`;
  return `COALESCE(${t.s}, ${number}, CAST(${t.b} AS VARCHAR))`;
}

export function toDyno(e: GExpr): string {
  switch (e.kind) {
    case 'col':
      return `${e.alias}.${e.name}`;
    case 'num':
      return e.text.startsWith('-') ? `(${e.text})` : e.text;
    case 'str':
      return quote(e.value);
    case 'bool':
      return String(e.value);
    case 'null':
      return 'NULL';
    case 'arith':
      return `(${toDyno(e.left)} ${e.op} ${toDyno(e.right)})`;
    case 'neg':
      return `(- ${toDyno(e.operand)})`;
    case 'fn':
      return e.name === 'CAST_INT' ? `CAST(${toDyno(e.arg)} AS INTEGER)` : `${e.name}(${toDyno(e.arg)})`;
    case 'replace':
      return `REPLACE(${toDyno(e.arg)}, ${quote(e.from)}, ${quote(e.to)})`;
    case 'date':
      return e.fn === 'TO_EPOCH_MS'
        ? `TO_EPOCH_MS(${quote(e.text)})`
        : `CAST(${quote(e.text)} AS ${e.fn === 'CAST_DATE' ? 'DATE' : 'TIMESTAMP'})`;
    case 'concat':
      return `(${toDyno(e.left)} || ${toDyno(e.right)})`;
    case 'coalesce':
      return `COALESCE(${toDyno(e.left)}, ${toDyno(e.right)})`;
    case 'cmp':
      return `(${toDyno(e.left)} ${e.op} ${toDyno(e.right)})`;
    case 'between':
      return `(${toDyno(e.operand)} ${e.negated ? 'NOT ' : ''}BETWEEN ${toDyno(e.low)} AND ${toDyno(e.high)})`;
    case 'in':
      return `(${toDyno(e.operand)} ${e.negated ? 'NOT ' : ''}IN (${e.items.map(toDyno).join(', ')}))`;
    case 'isnull':
      return `(${toDyno(e.operand)} IS ${e.negated ? 'NOT ' : ''}NULL)`;
    case 'like':
      return `(${toDyno(e.operand)} ${e.negated ? 'NOT ' : ''}LIKE ${quote(e.pattern)})`;
    case 'logic':
      return `(${toDyno(e.left)} ${e.op} ${toDyno(e.right)})`;
    case 'not':
      return `(NOT ${toDyno(e.operand)})`;
    case 'case':
      return `(CASE WHEN ${toDyno(e.when)} THEN ${toDyno(e.then)} ELSE ${toDyno(e.otherwise)} END)`;
  }
}

/** Random expressions over the columns of `aliases`. */
export class ExprGen {
  constructor(
    readonly r: Random,
    readonly aliases: string[],
  ) {}

  col(type?: ColType): GExpr {
    const candidates = COLUMNS.filter((c) => !type || c.type === type);
    return { kind: 'col', alias: this.r.pick(this.aliases), name: this.r.pick(candidates).name };
  }

  literal(kind: Kind): GExpr {
    const r = this.r;
    if (r.chance(0.05)) return { kind: 'null' };
    const k = kind === 'any' ? r.pick(['num', 'str', 'bool'] as const) : kind;
    if (k === 'num') return { kind: 'num', text: randomNumber(r) };
    if (k === 'str') return { kind: 'str', value: r.pick(STRINGS) };
    return { kind: 'bool', value: r.chance(0.5) };
  }

  /**
   * ISO text of a date that may not exist: months 00-13, days 00-32 (February's 29th in leap
   * and common years), clock fields up to 25:60:60, with or without a time and a Z.
   */
  dateText(): string {
    const r = this.r;
    const two = (n: number) => String(n).padStart(2, '0');
    const date = `${r.pick([1900, 2000, 2023, 2024])}-${two(r.int(0, 13))}-${two(r.chance(0.3) ? r.pick([28, 29, 30, 31]) : r.int(0, 32))}`;
    if (r.chance(0.5)) return date;
    const time = `${two(r.int(0, 25))}:${two(r.pick([0, 30, 59, 60]))}:${two(r.pick([0, 15, 59, 60]))}`;
    return `${date}${r.pick(['T', ' '])}${time}${r.pick(['', 'Z'])}`;
  }

  value(kind: Kind, depth: number): GExpr {
    const r = this.r;
    if (depth <= 0 || r.chance(0.45)) {
      if (r.chance(0.3)) return this.literal(kind);
      if (kind === 'any') return this.col();
      // A column of another type now and then: DynamoDB columns have no fixed type anyway.
      return this.col(r.chance(0.8) ? (kind === 'num' ? 'N' : kind === 'str' ? 'S' : 'BOOL') : undefined);
    }
    const k = kind === 'any' ? r.pick(['num', 'str'] as const) : kind;
    if (k === 'bool') return this.predicate(depth - 1);
    if (k === 'num') {
      switch (r.int(0, 6)) {
        case 0:
        case 1:
          // Products of products overflow DuckDB's DECIMAL width; keep multiplication shallow.
          return {
            kind: 'arith',
            op: depth > 1 ? r.pick(['+', '-'] as const) : r.pick(['+', '-', '*'] as const),
            left: this.value('num', depth - 1),
            right: this.value('num', depth - 1),
          };
        case 2:
          return { kind: 'neg', operand: this.value('num', depth - 1) };
        case 3:
          return {
            kind: 'fn',
            name: r.pick(['ABS', 'ROUND', 'CAST_INT'] as const),
            arg: this.value('num', depth - 1),
          };
        case 4:
          return { kind: 'fn', name: 'LENGTH', arg: this.value('str', depth - 1) };
        case 5:
          return { kind: 'date', fn: 'TO_EPOCH_MS', text: this.dateText() };
        default:
          return {
            kind: 'coalesce',
            left: this.value('num', depth - 1),
            right: this.value('num', depth - 1),
          };
      }
    }
    switch (r.int(0, 5)) {
      case 0:
        return {
          kind: 'fn',
          name: r.pick(['UPPER', 'LOWER', 'TRIM'] as const),
          arg: this.value('str', depth - 1),
        };
      case 1:
        return {
          kind: 'replace',
          arg: this.value('str', depth - 1),
          from: r.pick(['', 'a', 'b', ' ']),
          to: r.pick(['', '_', 'xy']),
        };
      case 2:
        return {
          kind: 'concat',
          left: r.chance(0.5) ? this.col() : this.value('str', depth - 1),
          right: this.value('str', depth - 1),
        };
      case 3:
        return {
          kind: 'case',
          when: this.predicate(depth - 1),
          then: this.value('str', depth - 1),
          otherwise: this.value('str', depth - 1),
        };
      case 4:
        return { kind: 'date', fn: r.pick(['CAST_DATE', 'CAST_TIMESTAMP'] as const), text: this.dateText() };
      default:
        return { kind: 'coalesce', left: this.value('str', depth - 1), right: this.value('str', depth - 1) };
    }
  }

  predicate(depth: number): GExpr {
    const r = this.r;
    const kind = r.pick(['num', 'str', 'any'] as const);
    const roll = depth <= 0 ? r.int(0, 5) : r.int(0, 8);
    switch (roll) {
      case 0:
      case 1:
        return {
          kind: 'cmp',
          op: r.pick(['=', '<>', '<', '<=', '>', '>='] as const),
          left: this.value(kind, depth - 1),
          right: this.value(kind, depth - 1),
        };
      case 2:
        return {
          kind: 'between',
          operand: this.value(kind, depth - 1),
          low: this.value(kind, 0),
          high: this.value(kind, 0),
          negated: r.chance(0.3),
        };
      case 3:
        return {
          kind: 'in',
          operand: this.value(kind, depth - 1),
          items: Array.from({ length: r.int(1, 4) }, () => this.literal(r.chance(0.7) ? kind : 'any')),
          negated: r.chance(0.3),
        };
      case 4:
        return { kind: 'isnull', operand: this.value('any', depth - 1), negated: r.chance(0.5) };
      case 5:
        return r.chance(0.5)
          ? {
              kind: 'like',
              operand: this.value('str', depth - 1),
              pattern: r.pick(['a%', '%b%', '_', '%', 'x_y', '', 'A%', '%a']),
              negated: r.chance(0.3),
            }
          : { kind: 'cmp', op: '=', left: this.col('BOOL'), right: { kind: 'bool', value: r.chance(0.5) } };
      case 6:
      case 7:
        return {
          kind: 'logic',
          op: r.pick(['AND', 'OR'] as const),
          left: this.predicate(depth - 1),
          right: this.predicate(depth - 1),
        };
      default:
        return { kind: 'not', operand: this.predicate(depth - 1) };
    }
  }
}
