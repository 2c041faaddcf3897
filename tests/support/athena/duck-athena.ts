import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { AttributeValue, Item } from '../../../src/shared/dynamo/attribute-value';
import { Decimal as IonDecimal, dumpText } from 'ion-js';
import { glueFieldName, memberName } from '../../../src/main/athena/glue-names';
import { parseDecimalText } from '../../../src/main/sql/values/decimal';

/**
 * Athena's side of the translation tests, on DuckDB: the export's items loaded the way Athena's
 * OpenX JSON SerDe reads them into the Glue table's `item` struct, and Trino's functions the
 * translation uses defined as DuckDB macros where DuckDB lacks them or means something else.
 * Every bridge is listed here; docs/SCALE.md repeats what only AWS can verify.
 */
export const TRINO_BRIDGES: [name: string, macro: string][] = [
  // Trino parses ISO-8601 text, offset-less as the session zone (UTC in Athena).
  ['from_iso8601_timestamp', 'from_iso8601_timestamp(s) AS TRY_CAST(s AS TIMESTAMPTZ)'],
  // Trino's try() turns an error into NULL; DuckDB's TRY_CAST above already does.
  ['try', 'try(x) AS x'],
  ['from_unixtime', 'from_unixtime(x) AS to_timestamp(x)'],
  ['to_unixtime', 'to_unixtime(ts) AS epoch(ts)'],
  ['to_iso8601', "to_iso8601(ts) AS strftime(ts, '%Y-%m-%dT%H:%M:%S.%gZ')"],
  ['day_of_week', 'day_of_week(ts) AS isodow(ts)'],
  ['day_of_year', 'day_of_year(ts) AS dayofyear(ts)'],
  ['week_of_year', 'week_of_year(ts) AS weekofyear(ts)'],
  // DuckDB's millisecond() includes the seconds; Trino's is 0–999.
  ['millisecond', 'millisecond(ts) AS (epoch_ms(ts) % 1000)'],
  // Trino: date_add(unit, n, ts); DuckDB's date_add takes an interval.
  [
    'date_add',
    "date_add(u, n, ts) AS CASE u WHEN 'year' THEN ts + to_years(CAST(n AS INTEGER)) WHEN 'quarter' THEN ts + to_months(CAST(3 * n AS INTEGER)) WHEN 'month' THEN ts + to_months(CAST(n AS INTEGER)) WHEN 'week' THEN ts + to_days(CAST(7 * n AS INTEGER)) WHEN 'day' THEN ts + to_days(CAST(n AS INTEGER)) WHEN 'hour' THEN ts + to_hours(CAST(n AS BIGINT)) WHEN 'minute' THEN ts + to_minutes(CAST(n AS BIGINT)) ELSE ts + to_seconds(CAST(n AS BIGINT)) END",
  ],
  // Trino counts whole units elapsed; DuckDB's date_diff counts boundaries crossed, its date_sub whole units.
  ['date_diff', 'date_diff(u, a, b) AS date_sub(u, a, b)'],
  ['json_format', 'json_format(j) AS CAST(j AS VARCHAR)'],
  ['cardinality', 'cardinality(x) AS len(x)'],
  // Trino's element_at on an array is 1-based and NULL past the end, like DuckDB's list_extract.
  ['element_at', 'element_at(l, i) AS list_extract(l, i)'],
  // Trino (regexp_extract(string, pattern, group)): NULL when the pattern does not match; DuckDB
  // gives ''. A group that takes no part is NULL in Trino and '' here: the translation's patterns
  // have none (translate/number-text.ts), and this bridge keeps the no-match case Trino's.
  [
    'regexp_extract',
    'regexp_extract(s, p, g) AS CASE WHEN regexp_matches(s, p) THEN system.main.regexp_extract(s, p, g) END',
  ],
  // Trino (regexp_replace(string, pattern, replacement)) replaces every match; DuckDB the first
  // unless told 'g'.
  ['regexp_replace', "regexp_replace(s, p, r) AS system.main.regexp_replace(s, p, r, 'g')"],
];

/**
 * Trino's AVG of a DECIMAL(p, s) is a DECIMAL(p, s): the exact sum over the count, rounded half
 * up at s places. DuckDB's is a DOUBLE (17 digits), so each plain `avg(CAST(x AS DECIMAL(38, s)))`
 * the translation writes is run here as Trino computes it: the sum's unscaled digits (HUGEINT)
 * divided by the count, the remainder rounding half away from zero, the point put back in text.
 * A windowed or DISTINCT AVG stays DuckDB's (the ledgers say where that shows).
 */
export function trinoAverages(sql: string): string {
  let out = '';
  let i = 0;
  for (;;) {
    const at = sql.indexOf('avg(', i);
    if (at < 0) return out + sql.slice(i);
    let depth = 0;
    let end = at + 3;
    for (; end < sql.length; end++) {
      if (sql[end] === '(') depth += 1;
      else if (sql[end] === ')' && --depth === 0) break;
    }
    const arg = sql.slice(at + 4, end);
    const scale = /^CAST\(.* AS DECIMAL\(38, (\d+)\)\)$/s.exec(arg)?.[1];
    const windowed = /^\s*OVER\b/.test(sql.slice(end + 1));
    if (scale === undefined || windowed || /^DISTINCT\b/.test(arg)) {
      out += sql.slice(i, end + 1);
      i = end + 1;
      continue;
    }
    const s = Number(scale);
    const unscaled = `CAST(replace(CAST(sum(${arg}) AS VARCHAR), '.', '') AS HUGEINT)`;
    const n = `count(${arg})`;
    const q = `(${unscaled} // ${n} + sign(${unscaled}) * CAST(2 * abs(${unscaled} % ${n}) >= ${n} AS INTEGER))`;
    // DuckDB's lpad also cuts a longer text down to the width: pad only what is shorter.
    const plain = `CAST(abs(${q}) AS VARCHAR)`;
    const digits = `lpad(${plain}, CAST(greatest(length(${plain}), ${s + 1}) AS INTEGER), '0')`;
    const text = `(CASE WHEN ${q} < 0 THEN '-' ELSE '' END) || left(${digits}, length(${digits}) - ${s}) || '.' || right(${digits}, ${s})`;
    out += `${sql.slice(i, at)}(CASE WHEN ${n} = 0 THEN NULL ELSE CAST(${text} AS DECIMAL(38, ${s})) END)`;
    i = end + 1;
  }
}

/** A Hive type string of the Glue column → DuckDB's type. */
export function duckType(hive: string): string {
  let i = 0;
  const parse = (): string => {
    const word = /^[a-z]+/.exec(hive.slice(i))![0];
    i += word.length;
    if (word === 'string') return 'VARCHAR';
    if (word === 'boolean') return 'BOOLEAN';
    if (word === 'binary') return 'BLOB';
    if (word === 'decimal') {
      const args = /^\(\d+,\d+\)/.exec(hive.slice(i))![0];
      i += args.length;
      return `DECIMAL${args}`;
    }
    if (word === 'array') {
      i += 1;
      const inner = parse();
      i += 1;
      return `${inner}[]`;
    }
    if (word === 'struct') {
      i += 1;
      const fields: string[] = [];
      while (hive[i] !== '>') {
        let name: string;
        if (hive[i] === '`') {
          const end = hive.indexOf('`', i + 1);
          name = hive.slice(i + 1, end);
          i = end + 1;
        } else {
          const end = hive.indexOf(':', i);
          name = hive.slice(i, end);
          i = end;
        }
        i += 1;
        fields.push(`"${name.replace(/"/g, '""')}" ${parse()}`);
        if (hive[i] === ',') i += 1;
      }
      i += 1;
      return `STRUCT(${fields.join(', ')})`;
    }
    throw new Error(`unknown Hive type ${word}`);
  };
  return parse();
}

/** What the SerDe makes of one DynamoDB JSON value: lowercased type members, dotted keys underscored. */
function serde(v: AttributeValue): unknown {
  const [type, inner] = Object.entries(v)[0] as [string, unknown];
  const key = memberName(type as never);
  if (type === 'L') return { l: (inner as AttributeValue[]).map(serde) };
  if (type === 'M') return { m: serdeMap(inner as Record<string, AttributeValue>) };
  return { [key]: inner };
}

function serdeMap(map: Record<string, AttributeValue>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(map)) out[glueFieldName(name)] = serde(value);
  return out;
}

/** A blob as DuckDB's JSON reader casts text to BLOB: every byte escaped. */
function blobText(base64: string): string {
  return [...Buffer.from(base64, 'base64')].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
}

/** The Glue column's Hive type as a tree: which fields are text, which DECIMAL. */
type HiveNode = { struct: Map<string, HiveNode> } | { array: HiveNode } | { scalar: string };

function hiveTree(hive: string): HiveNode {
  let i = 0;
  const parse = (): HiveNode => {
    const word = /^[a-z]+/.exec(hive.slice(i))![0];
    i += word.length;
    if (word === 'array') {
      i += 1;
      const of = parse();
      i += 1;
      return { array: of };
    }
    if (word !== 'struct') {
      const args = /^\(\d+,\d+\)/.exec(hive.slice(i))?.[0] ?? '';
      i += args.length;
      return { scalar: word };
    }
    i += 1;
    const fields = new Map<string, HiveNode>();
    while (hive[i] !== '>') {
      const quoted = hive[i] === '`';
      const end = quoted ? hive.indexOf('`', i + 1) : hive.indexOf(':', i);
      const name = hive.slice(quoted ? i + 1 : i, end);
      i = (quoted ? end + 1 : end) + 1;
      fields.set(name, parse());
      if (hive[i] === ',') i += 1;
    }
    i += 1;
    return { struct: fields };
  };
  return parse();
}

/**
 * A number in a `string` column of an Ion table: the Ion SerDe gives a string column any Ion
 * value's Ion text (its IonValueToStringObjectInspector prints the value), here as Amazon's
 * ion-js writes that decimal (`1d-130`, `999d123`, `0.5`, `-1d-9`); the translation reads any
 * Ion spelling of a decimal.
 */
function ionDecimalText(n: string): string {
  const d = parseDecimalText(n)!;
  // ion-js takes the sign apart from the coefficient (a negative bigint would lose it).
  return dumpText(new IonDecimal(d.coef < 0n ? -d.coef : d.coef, d.exp, d.coef < 0n));
}

/** What the Ion Hive SerDe makes of one value of an Ion export: native values, sets as arrays. */
function ionSerde(v: AttributeValue, type?: HiveNode): unknown {
  const text = type !== undefined && 'scalar' in type && type.scalar === 'string';
  const elementText =
    type !== undefined && 'array' in type && 'scalar' in type.array && type.array.scalar === 'string';
  if ('S' in v) return v.S;
  if ('N' in v) return text ? ionDecimalText(v.N) : v.N;
  if ('B' in v) return blobText(v.B);
  if ('BOOL' in v) return v.BOOL;
  if ('NULL' in v) return null;
  if ('SS' in v) return v.SS;
  if ('NS' in v) return elementText ? v.NS.map(ionDecimalText) : v.NS;
  if ('BS' in v) return v.BS.map(blobText);
  const element = type !== undefined && 'array' in type ? type.array : undefined;
  if ('L' in v) return v.L.map((x) => ionSerde(x, element));
  return ionSerdeMap(v.M, type);
}

function ionSerdeMap(map: Record<string, AttributeValue>, type?: HiveNode): Record<string, unknown> {
  const fields = type !== undefined && 'struct' in type ? type.struct : undefined;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(map))
    out[glueFieldName(name)] = ionSerde(value, fields?.get(glueFieldName(name)));
  return out;
}

export async function athenaOnDuck(
  database: string,
  tables: { glueTable: string; itemType: string; items: readonly Item[]; ion?: boolean }[],
): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`SET TimeZone = 'UTC'`);
  // DuckDB's filter pushdown fuses `k >= a AND k <= b` into a BETWEEN it cannot run on a STRUCT
  // ("Invalid type for BETWEEN"); Trino compares the ROW keys of number-text.ts either way.
  // Turning the rewrite off changes no answer, only how DuckDB plans the filter.
  await connection.run(`SET disabled_optimizers = 'filter_pushdown'`);
  for (const [, macro] of TRINO_BRIDGES) await connection.run(`CREATE MACRO ${macro}`);
  await connection.run(`CREATE SCHEMA "${database}"`);
  const dir = mkdtempSync(join(tmpdir(), 'athena-duck-'));
  for (const t of tables) {
    const file = join(dir, `${t.glueTable}.json`);
    // The export's own line form is {"Item": {...}}; the SerDe's view of it is what lands here.
    const tree = hiveTree(t.itemType);
    const view = (item: Item) => (t.ion ? ionSerdeMap(item, tree) : serdeMap(item));
    writeFileSync(file, t.items.map((item) => JSON.stringify({ item: view(item) })).join('\n') + '\n');
    const type = duckType(t.itemType).replace(/'/g, "''");
    await connection.run(
      `CREATE TABLE "${database}"."${t.glueTable}" AS SELECT * FROM read_json('${file}', format = 'newline_delimited', columns = {item: '${type}'})`,
    );
  }
  return connection;
}
