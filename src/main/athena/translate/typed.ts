import type { SchemaValueType } from '../../../shared/ipc/schema';
import type { AttrNode, NumberRange } from '../export-schema';
import { memberName, q } from '../glue-names';
import { parseDecimal } from '../../../shared/dynamo/number';
import { refuse } from './refuse';
import { canonicalSql, sortKeySql } from './number-text';

/**
 * The type of a translated value. Items have no column types, but a value in Athena must have
 * one: an attribute is carried as its DynamoDB JSON struct until its context picks a member
 * (`price > 10` reads `price.n`, `price = 'x'` reads `price.s`), which is DynamoDB's own rule
 * that values of different types are never equal nor ordered.
 */
export type ValueType = 'N' | 'S' | 'BOOL' | 'B' | 'JSON' | 'ANY';

/** A translated expression: an attribute's struct (types from the export's schema) or a typed value. */
export type Typed =
  | {
      kind: 'attr';
      sql: string;
      node: AttrNode | undefined;
      label: string;
      /** From an Ion export: the value is native (a DECIMAL, a VARBINARY), with no type member. */
      ion?: boolean;
      /** The schema it was read from saw every item (the export's own files), not some of them. */
      complete?: boolean;
    }
  | {
      kind: 'val';
      sql: string;
      type: ValueType;
      /** A number's widest whole and fractional parts, when known: what its DECIMAL holds. */
      digits?: Digits;
      /** A number literal's own text, to fit it to what it is compared with. */
      literal?: string;
      /** A number no DECIMAL holds, carried as its canonical text (`sql`): number-text.ts. */
      text?: NumberText;
    };

/** What a number carried as text needs besides its canonical text. */
export interface NumberText {
  /** Its sort key (a ROW Trino compares field by field), for <, BETWEEN, ORDER BY, MIN and MAX. */
  key: string;
  /** What a refusal names, and why, when it is summed or computed with. */
  construct: string;
  why: string;
}

export interface Digits {
  integer: number;
  fraction: number;
}

/** Athena's DECIMAL holds at most 38 digits, before and after the point together. */
export const MAX_DECIMAL_DIGITS = 38;

/** The type of a number whose digits were never read (a Schema view read, a sample): a guess. */
export const NUMBER_SQL_TYPE = 'DECIMAL(38, 9)';

export function decimalType(d: Digits): string {
  return `DECIMAL(${Math.max(1, d.integer + d.fraction)}, ${d.fraction})`;
}

/** A number as a person reads it in a sentence: 1E-130, not 0. followed by 129 zeros and a 1. */
function readable(text: string): string {
  const parts = parseDecimal(text);
  if (!parts || parts.digits === '' || text.length <= 24) return text;
  const [first, ...rest] = parts.digits;
  const mantissa = rest.length > 0 ? `${first}.${rest.join('')}` : first;
  return `${parts.negative ? '-' : ''}${mantissa}E${parts.exponent >= 0 ? '+' : ''}${parts.exponent}`;
}

/** `-1E+30 to 0.5`: the numbers an attribute holds, for a refusal to name. */
function rangeText(r: NumberRange): string {
  return r.min === r.max ? readable(r.min) : `${readable(r.min)} to ${readable(r.max)}`;
}

/** An attribute whose numbers no DECIMAL holds: more than 38 digits from its largest to its finest. */
function wideRange(t: Typed): NumberRange | undefined {
  if (t.kind !== 'attr') return undefined;
  const r = t.node?.numbers;
  return r && r.integer + r.fraction > MAX_DECIMAL_DIGITS ? r : undefined;
}

/** A number that is carried as text on Athena: an attribute no DECIMAL holds, or a value computed from one. */
export function carriesText(t: Typed): boolean {
  return t.kind === 'val' ? t.text !== undefined : hasType(t.node, 'N') && wideRange(t) !== undefined;
}

function wideRefusal(t: Extract<Typed, { kind: 'attr' }>, r: NumberRange): NumberText {
  return {
    key: '',
    construct: `summing, averaging or computing with ${t.label}`,
    why: `its numbers run from ${rangeText(r)}, which needs ${r.integer} digits before the point and ${r.fraction} after, and Athena's DECIMAL holds ${MAX_DECIMAL_DIGITS} in all. Athena compares, groups and orders such numbers exactly as text, but a sum, an average or arithmetic has no exact type there`,
  };
}

/** The DECIMAL that holds every number of an attribute exactly, or the sentence saying none does. */
function attributeDecimal(t: Extract<Typed, { kind: 'attr' }>): Digits | undefined {
  const r = t.node?.numbers;
  if (!r) return undefined;
  if (r.integer + r.fraction > MAX_DECIMAL_DIGITS) {
    const { construct, why } = wideRefusal(t, r);
    refuse(construct, why);
  }
  return { integer: r.integer, fraction: r.fraction };
}

/**
 * A number as text and its sort key: an attribute's own text (the export's, in DynamoDB JSON or
 * as the Ion SerDe prints an Ion decimal), or a DECIMAL's text (`CAST(12.50 AS VARCHAR)` is
 * `12.50`), each made canonical by number-text.ts.
 */
export function numberText(t: Typed): { canonical: string; key: string } {
  if (t.kind === 'val' && t.text) return { canonical: t.sql, key: t.text.key };
  let raw: string;
  if (t.kind === 'val') raw = `CAST(${t.sql} AS VARCHAR)`;
  else if (!hasType(t.node, 'N')) raw = 'CAST(NULL AS VARCHAR)';
  else raw = t.ion && !wideRange(t) ? `CAST(${member(t, 'N')} AS VARCHAR)` : member(t, 'N');
  return { canonical: canonicalSql(raw), key: sortKeySql(raw) };
}

/** A number carried as text: its canonical text and key, refused as NUMBER wherever it is summed or computed with. */
export function textValue(sql: string, key: string, from: NumberText): Typed {
  return { kind: 'val', sql, type: 'N', text: { ...from, key } };
}

/** Why a number carried as text cannot be summed or computed with, for a value derived from it. */
export function textRefusal(t: Typed): NumberText {
  if (t.kind === 'val') return t.text ?? { key: '', construct: 'the number', why: 'it is carried as text' };
  return wideRefusal(t, wideRange(t)!);
}

/** An attribute no DECIMAL holds, as a value: its canonical text. */
function wideValue(t: Extract<Typed, { kind: 'attr' }>, r: NumberRange): Typed {
  const { canonical, key } = numberText(t);
  return textValue(canonical, key, wideRefusal(t, r));
}

/** A column of a derived table read by name: a number carried as text gets its key from the column. */
export function renamed(column: Typed, sql: string): Typed {
  if (column.kind === 'val' && column.text) return textValue(sql, sortKeySql(sql), column.text);
  return { ...column, sql };
}

/** What a number value's DECIMAL holds, when the export told it. */
export function digitsOf(t: Typed): Digits | undefined {
  if (t.kind === 'val') return t.type === 'N' ? t.digits : undefined;
  return hasType(t.node, 'N') ? attributeDecimal(t) : undefined;
}
const SCALARS: SchemaValueType[] = ['N', 'S', 'BOOL', 'B'];

const SQL_TYPE: Record<'N' | 'S' | 'BOOL' | 'B', string> = {
  // The narrowest DECIMAL: next to any other it widens nothing (a wider one could overflow it).
  N: 'DECIMAL(1, 0)',
  S: 'VARCHAR',
  BOOL: 'BOOLEAN',
  B: 'VARCHAR',
};

export const val = (sql: string, type: ValueType, digits?: Digits): Typed =>
  digits && type === 'N' ? { kind: 'val', sql, type, digits } : { kind: 'val', sql, type };

/**
 * The attribute's value of one type. In an Ion export an attribute has one type (the Glue table
 * refuses several), so the value itself is that member; binary is shown as DynamoDB JSON shows it.
 */
export function member(t: Extract<Typed, { kind: 'attr' }>, type: SchemaValueType): string {
  if (!t.ion) return `${t.sql}.${q(memberName(type))}`;
  if (type === 'B') return `to_base64(${t.sql})`;
  return t.sql;
}

export function scalarTypes(node: AttrNode | undefined): ('N' | 'S' | 'BOOL' | 'B')[] {
  if (!node) return [];
  return SCALARS.filter((s) => node.types.has(s)) as ('N' | 'S' | 'BOOL' | 'B')[];
}

export function hasType(node: AttrNode | undefined, type: SchemaValueType): boolean {
  return node?.types.has(type) ?? false;
}

export function nullOf(type: 'N' | 'S' | 'BOOL' | 'B'): string {
  return `CAST(NULL AS ${SQL_TYPE[type]})`;
}

/** The value as one scalar type; NULL where the item holds another type (or nothing). */
export function asType(t: Typed, type: 'N' | 'S' | 'BOOL' | 'B'): string {
  if (t.kind === 'val') {
    if (t.text && type === 'N') refuse(t.text.construct, t.text.why);
    if (t.type === type || t.type === 'ANY') return t.sql;
    return nullOf(type);
  }
  if (!hasType(t.node, type)) return nullOf(type);
  if (type === 'N') {
    const digits = attributeDecimal(t);
    return `CAST(${member(t, 'N')} AS ${digits ? decimalType(digits) : NUMBER_SQL_TYPE})`;
  }
  return member(t, type);
}

/** The one scalar type of a value, when it has exactly one. */
export function soleType(t: Typed): 'N' | 'S' | 'BOOL' | 'B' | undefined {
  if (t.kind === 'val') return t.type === 'JSON' || t.type === 'ANY' ? undefined : t.type;
  const scalars = scalarTypes(t.node);
  const others = [...(t.node?.types ?? [])].filter((x) => x !== 'NULL' && !scalars.includes(x as never));
  return scalars.length === 1 && others.length === 0 ? scalars[0] : undefined;
}

/** Text of a value the way DynamoDB writes it: a number attribute keeps its exact digits. */
export function asText(t: Typed): string {
  if (carriesText(t) && (t.kind === 'val' || t.ion))
    refuse(
      `${t.kind === 'attr' ? t.label : 'a number no DECIMAL holds'} as text`,
      t.kind === 'attr'
        ? "an Ion export's numbers read as text in Ion's own spelling (1d-130), not DynamoDB's; an export in DynamoDB JSON keeps DynamoDB's text"
        : "Athena carries it in a canonical spelling of its own, not DynamoDB's; read the attribute itself as text",
    );
  if (t.kind === 'val') {
    if (t.type === 'S' || t.type === 'ANY') return t.sql;
    return `CAST(${t.sql} AS VARCHAR)`;
  }
  const parts = scalarTypes(t.node).map((type) =>
    type === 'BOOL' ? `CAST(${member(t, 'BOOL')} AS VARCHAR)` : member(t, type),
  );
  if (parts.length === 0) return 'CAST(NULL AS VARCHAR)';
  return parts.length === 1 ? parts[0]! : `COALESCE(${parts.join(', ')})`;
}

/**
 * A value for a result column or a function that takes anything. Several scalar types become
 * text (a column in Athena has one type), lists, sets and maps DynamoDB JSON text; `notes`
 * says so, because the user sees these values differ from the local engine's.
 */
export function asValue(t: Typed, notes: string[]): Typed {
  if (t.kind === 'val') return t;
  const node = t.node;
  if (!node || node.types.size === 0 || (node.types.size === 1 && node.types.has('NULL')))
    return val('NULL', 'ANY');
  const one = soleType(t);
  const wide = wideRange(t);
  if (one === 'N' && wide) return wideValue(t, wide);
  if (one) return val(asType(t, one), one, one === 'N' ? digitsOf(t) : undefined);
  const composite = [...node.types].filter((x) => !['N', 'S', 'BOOL', 'B', 'NULL'].includes(x));
  if (composite.length > 0) {
    notes.push(
      `${t.label} holds ${[...node.types].join(', ')}: Athena returns it as ${t.ion ? 'plain JSON' : 'DynamoDB JSON'} text.`,
    );
    return val(`json_format(CAST(${t.sql} AS JSON))`, 'JSON');
  }
  notes.push(
    `${t.label} holds ${scalarTypes(node).join(' and ')} values: Athena returns them as text in one column.`,
  );
  return val(asText(t), 'S');
}

/**
 * ORDER BY keys of a value. An attribute of several types sorts as DynoTable sorts it: in blocks
 * (booleans, numbers, strings, binary), each block by its own order, so 9 comes before 10.
 */
export function sortKeys(t: Typed, notes: string[]): string[] {
  if (carriesText(t) && (t.kind === 'val' || soleType(t))) return [numberText(t).key];
  if (t.kind === 'val' || soleType(t)) return [asValue(t, notes).sql];
  const scalars = (['BOOL', 'N', 'S', 'B'] as const).filter((x) => hasType(t.node, x));
  if (scalars.length === 0) return [asValue(t, notes).sql];
  const block = `(CASE ${scalars.map((x, i) => `WHEN ${member(t, x)} IS NOT NULL THEN ${i}`).join(' ')} END)`;
  return [block, ...scalars.map((x) => (x === 'N' && carriesText(t) ? numberText(t).key : asType(t, x)))];
}
