import type { Expr, FromItem, Query, Select } from '../sql/parser/ast';
import { parseStatement } from '../sql/parser/parser';
import { listSavedQueries, readHistory } from '../sql/files/query-files';

/** One SQL statement that reads the table, as far as its text tells. */
export interface TableRead {
  /** Top-level attributes it names anywhere (select list, WHERE, ORDER BY…). */
  attributes: Set<string>;
  /** Top-level attributes its WHERE tests: an index on them can serve it. */
  filtered: Set<string>;
  /** A `SELECT *` (or `t.*`) of the table: it reads every attribute. */
  readsAll: boolean;
}

/** What DynoTable has recorded of the reads of one table: the evidence a projection finding names. */
export interface TableReadEvidence {
  /** Where the statements came from, in words. */
  source: string;
  reads: TableRead[];
}

const sameName = (a: string, b: string) => a === b || a.toLowerCase() === b.toLowerCase();

/** The FROM names of one SELECT that are this table (or one of its entity views), with their aliases. */
function tableAliases(from: FromItem | undefined, table: string, out: Set<string>): void {
  if (!from) return;
  if (from.kind === 'join') {
    tableAliases(from.left, table, out);
    tableAliases(from.right, table, out);
  } else if (from.kind === 'table') {
    if (sameName(from.name, table) || (from.schema !== undefined && sameName(from.schema, table)))
      out.add((from.alias ?? from.name).toLowerCase());
  }
}

/** Every nested SELECT and expression node, walked as plain data (the AST is plain objects). */
function walk(node: unknown, visit: (node: { kind?: unknown }) => boolean): void {
  if (node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!visit(node)) return;
  for (const value of Object.values(node)) walk(value, visit);
}

/** The top-level attribute a reference names, past a qualifier that is this table's alias. */
function attributeOf(ref: Extract<Expr, { kind: 'ref' }>, aliases: Set<string>): string | undefined {
  const [first, second] = ref.parts;
  if (first?.kind !== 'name') return undefined;
  if (second?.kind === 'name' && !first.quoted && aliases.has(first.name.toLowerCase())) return second.name;
  return first.name;
}

function namesIn(node: unknown, aliases: Set<string>, out: Set<string>): void {
  walk(node, (n) => {
    if (n.kind === 'select' || n.kind === 'setop') return false;
    if (n.kind === 'ref') {
      const name = attributeOf(n as Extract<Expr, { kind: 'ref' }>, aliases);
      if (name !== undefined) out.add(name);
      return false;
    }
    return true;
  });
}

function selectRead(select: Select, table: string): TableRead | undefined {
  const aliases = new Set<string>();
  tableAliases(select.from, table, aliases);
  if (aliases.size === 0) return undefined;
  const attributes = new Set<string>();
  const filtered = new Set<string>();
  const { items, where, groupBy, having, qualify, orderBy } = select;
  namesIn([items, where, groupBy, having, qualify, orderBy], aliases, attributes);
  namesIn(select.where, aliases, filtered);
  const readsAll = select.items.some(
    (i) => i.kind === 'star' && (i.qualifier === undefined || aliases.has(i.qualifier.toLowerCase())),
  );
  return { attributes, filtered, readsAll };
}

/** The table's reads in one statement: its SELECTs (subqueries and WITH queries included) that name it. */
export function tableReadsOf(sql: string, table: string): TableRead[] {
  let query: Query;
  try {
    query = parseStatement(sql).query;
  } catch {
    return [];
  }
  const reads: TableRead[] = [];
  walk(query, (n) => {
    if (n.kind === 'select') {
      const read = selectRead(n as Select, table);
      if (read) reads.push(read);
    }
    return true;
  });
  return reads;
}

/**
 * What the app has recorded of a connection's reads of a table: the SQL workbench's history and
 * saved queries (plain files in the data folder). Reads made by other applications, or by the
 * Items tab's builder (which shows every attribute), leave no record here; the finding says so.
 */
export async function recordedTableReads(
  dataDir: string,
  connectionId: string,
  table: string,
): Promise<TableReadEvidence> {
  const [history, saved] = await Promise.all([
    readHistory(dataDir, connectionId),
    listSavedQueries(dataDir, connectionId),
  ]);
  const reads = [...history, ...saved].flatMap((s) => tableReadsOf(s.sql, table));
  return {
    source: `this connection's SQL history (${history.length} statement${history.length === 1 ? '' : 's'}) and saved queries (${saved.length})`,
    reads,
  };
}
