import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { Item } from '../../../src/shared/dynamo/attribute-value';
import type { EntityView } from '../../../src/shared/sql/catalog';
import { type LocalTable, runLocal, tableInfo } from '../../../src/main/sql/executor/run-local';
import { isNum, numToString } from '../../../src/main/sql/values/decimal';
import { typeName, type Value } from '../../../src/main/sql/values/value';
import { type Dataset, duckTableSql, randomDataset } from './data';
import { generateStatement, type GenStatement } from './statements';

/** Where every disagreement ever found is kept, with the rows that are right. */
export const REGRESSIONS_FILE = join(__dirname, '..', '..', 'sql-diff', 'regressions.json');

/** A statement, the items it ran on (kept whole, so a change to the generator cannot lose it) and the right rows. */
export interface Regression {
  note: string;
  data: Dataset;
  dyno: string;
  /** Found with ta and tb as entity views of one table (sql-fuzz --views). */
  views?: boolean;
  /** Canonical rows (sorted unless the statement orders by id), or one `error: …` line. */
  expected: string[];
}

export function loadRegressions(): Regression[] {
  return JSON.parse(readFileSync(REGRESSIONS_FILE, 'utf8')) as Regression[];
}

/** Canonical decimal text: no trailing zeros, no "-0" (DECIMAL(18,2) prints 1.50, DynoTable 1.5). */
function canonNumber(text: string, approx: boolean): string {
  if (approx) {
    const n = Number(text);
    return Number.isFinite(n) ? String(Number(n.toPrecision(10))) : text;
  }
  let t = text.trim();
  const negative = t.startsWith('-');
  if (negative) t = t.slice(1);
  if (t.includes('.')) t = t.replace(/0+$/, '').replace(/\.$/, '');
  t = t.replace(/^0+(?=\d)/, '');
  return t === '0' ? '0' : `${negative ? '-' : ''}${t}`;
}

export function renderDyno(v: Value, approx: boolean): string {
  if (v === null || v === undefined) return 'NULL';
  if (isNum(v)) return `N:${canonNumber(numToString(v), approx)}`;
  if (typeof v === 'string') return `S:${JSON.stringify(v)}`;
  if (typeof v === 'boolean') return `B:${v}`;
  return `?:${typeName(v)}`;
}

/** DuckDB's JSON rows: DECIMAL and BIGINT as strings or numbers, VARCHAR strings, BOOLEAN booleans. */
function renderDuck(n: unknown, s: unknown, b: unknown, approx: boolean): string {
  if (typeof n === 'string' || typeof n === 'number') return `N:${canonNumber(String(n), approx)}`;
  if (typeof s === 'string') return `S:${JSON.stringify(s)}`;
  if (typeof b === 'boolean') return `B:${b}`;
  if (n !== null || s !== null || b !== null) return `?:${JSON.stringify([n, s, b])}`;
  return 'NULL';
}

function localTables(data: Dataset) {
  return [
    { info: tableInfo('ta', 'id'), items: data.ta },
    { info: tableInfo('tb', 'id'), items: data.tb },
  ];
}

/**
 * The dataset as a single-table design: one table `app` keyed (PK, SK), ta's items under SK
 * `A#<id>` and tb's under `B#<id>`, read through entity views named ta and tb. The views' rows
 * are exactly the two tables' items, so DuckDB's side is unchanged.
 */
function oneTable(data: Dataset): { tables: LocalTable[]; views: EntityView[] } {
  const keyed = (items: Item[], prefix: string) =>
    items.map((item) => {
      const id = (item.id as { S: string }).S;
      return { ...item, PK: { S: id }, SK: { S: `${prefix}${id}` } };
    });
  const view = (name: string, prefix: string): EntityView => ({
    name,
    table: 'app',
    conditions: [{ attribute: 'SK', op: 'begins_with', values: [{ S: prefix }] }],
    source: 'detected',
  });
  return {
    tables: [
      { info: tableInfo('app', 'PK', 'SK'), items: [...keyed(data.ta, 'A#'), ...keyed(data.tb, 'B#')] },
    ],
    views: [view('ta', 'A#'), view('tb', 'B#')],
  };
}

/**
 * DynoTable's engine on the dataset: canonical rows, or the error's message. `throughViews`:
 * ta and tb are entity views of one table (see oneTable).
 */
export function dynoRows(
  data: Dataset,
  sql: string,
  statement?: GenStatement,
  throughViews = false,
): string[] | { error: string } {
  try {
    const { tables, views } = throughViews ? oneTable(data) : { tables: localTables(data), views: [] };
    const { rows } = runLocal(sql, tables, views);
    const out = rows.map((row) =>
      row.map((v, i) => renderDyno(v, statement?.approx.includes(i) ?? false)).join(' | '),
    );
    return statement?.ordered ? out : out.sort();
  } catch (error) {
    return { error: (error as Error).message };
  }
}

export class DuckOracle {
  private constructor(private readonly connection: DuckDBConnection) {}

  static async open(): Promise<DuckOracle> {
    const instance = await DuckDBInstance.create(':memory:');
    return new DuckOracle(await instance.connect());
  }

  async load(data: Dataset): Promise<void> {
    for (const sql of [...duckTableSql('ta', data.ta), ...duckTableSql('tb', data.tb)])
      await this.connection.run(sql);
  }

  async rows(statement: GenStatement): Promise<string[] | { error: string }> {
    try {
      const reader = await this.connection.runAndReadAll(statement.duck);
      const out = reader.getRowsJson().map((row) => {
        const cells: string[] = [];
        for (let i = 0; i < statement.outputs; i++)
          cells.push(renderDuck(row[3 * i], row[3 * i + 1], row[3 * i + 2], statement.approx.includes(i)));
        return cells.join(' | ');
      });
      return statement.ordered ? out : out.sort();
    } catch (error) {
      return { error: (error as Error).message };
    }
  }

  close(): void {
    this.connection.closeSync();
  }
}

/** Same rows, or both refuse the statement (their messages differ, e.g. GROUP BY 53). */
export function agree(a: string[] | { error: string }, b: string[] | { error: string }): boolean {
  if (!Array.isArray(a) && !Array.isArray(b)) return true;
  return JSON.stringify(a) === JSON.stringify(b);
}

export interface Disagreement {
  dataSeed: number;
  index: number;
  dyno: string;
  duck: string;
  dynoRows: string[] | { error: string };
  duckRows: string[] | { error: string };
}

/**
 * Runs `count` statements per dataset for datasets seed .. seed+datasets-1; returns the
 * disagreements. `throughViews`: ta and tb as entity views of one table (see oneTable).
 */
export async function differential(
  oracle: DuckOracle,
  seed: number,
  datasets: number,
  count: number,
  throughViews = false,
): Promise<{ cases: number; disagreements: Disagreement[] }> {
  const disagreements: Disagreement[] = [];
  let cases = 0;
  for (let d = 0; d < datasets; d++) {
    const dataSeed = seed + d;
    const data = randomDataset(dataSeed);
    await oracle.load(data);
    for (let index = 0; index < count; index++) {
      const statement = generateStatement(dataSeed, index);
      const [mine, theirs] = [
        dynoRows(data, statement.dyno, statement, throughViews),
        await oracle.rows(statement),
      ];
      cases += 1;
      if (!agree(mine, theirs))
        disagreements.push({
          dataSeed,
          index,
          dyno: statement.dyno,
          duck: statement.duck,
          dynoRows: mine,
          duckRows: theirs,
        });
    }
  }
  return { cases, disagreements };
}
