import type { Item } from '../../../shared/dynamo/attribute-value';
import type { EntityView, SqlCatalog } from '../../../shared/sql/catalog';
import type { CoreContext } from '../../core/context';
import { loadViews } from '../../sql/files/view-store';
import { sqlServiceFor } from '../../sql/service-registry';
import { toModelValue } from '../plain-values';
import { attributePaths, readBounded } from '../reads';

/** Items sampled per table for attribute types (and, when asked, values); at most this many tables. */
const SAMPLE_ITEMS = 10;
const SAMPLE_TABLES = 12;
const VALUES_PER_ATTRIBUTE = 3;
const VALUE_CHARS = 40;
/** A sample is reused this long, so asking twice does not read twice. */
const SAMPLE_TTL_MS = 5 * 60_000;

export const SYSTEM_PROMPT = `You write SQL for DynoTable's SQL workbench, which runs one SELECT over Amazon DynamoDB tables with an exact, standard-SQL engine: JOIN, GROUP BY, HAVING, ORDER BY, LIMIT, subqueries, aggregates, CASE, CAST, COALESCE, string and date functions.
Rules:
- Use only the tables, entity views and attribute names listed in the context. Never invent a name; if the data needed is not listed, say so instead of guessing.
- Quote table names with dashes or dots in double quotes ("my-table"). Nested attributes are paths like address.city.
- An entity view of a single-table design is used as a table: FROM orders, or FROM "Table".orders when several tables have one.
- A partition-key equality in WHERE becomes a DynamoDB Query (cheap); anything else scans the table. Prefer key conditions.
- SELECT only: never INSERT, UPDATE or DELETE.
Answer with exactly one \`\`\`sql block and at most two short sentences.`;

export const EXPLAIN_PROMPT = `You explain DynoTable's SQL plans to DynamoDB users in plain words: which DynamoDB calls the statement makes (Query, Scan, GetItem) and why, what it will read and cost in read capacity units, and, if it scans, one concrete way to make it cheaper (a key condition, an index). At most six short sentences, no code block unless you propose a cheaper statement.`;

interface Sample {
  at: number;
  items: Map<string, Item[]>;
}
const samples = new WeakMap<CoreContext, Map<string, Sample>>();

async function sampleTables(
  ctx: CoreContext,
  connectionId: string,
  tables: string[],
  signal: AbortSignal,
): Promise<Map<string, Item[]>> {
  let byConnection = samples.get(ctx);
  if (!byConnection) samples.set(ctx, (byConnection = new Map<string, Sample>()));
  const cached = byConnection.get(connectionId);
  if (cached && Date.now() - cached.at < SAMPLE_TTL_MS) return cached.items;
  const client = await ctx.clients.dynamo(connectionId);
  const items = new Map<string, Item[]>();
  for (const table of tables.slice(0, SAMPLE_TABLES)) {
    const read = await readBounded(
      client,
      { kind: 'scan', input: { TableName: table } },
      SAMPLE_ITEMS,
      signal,
    );
    items.set(table, read.items);
  }
  byConnection.set(connectionId, { at: Date.now(), items });
  return items;
}

function keyText(key: { name: string; type: string }): string {
  return `${key.name} (${key.type})`;
}

function viewText(view: EntityView): string {
  const where = view.conditions
    .map(
      (c) => `${c.attribute} ${c.op} ${c.values.map((v) => JSON.stringify(toModelValue(v))).join(' and ')}`,
    )
    .join(' and ');
  return `- entity view ${view.name}: the items of "${view.table}"${view.index ? ` (index ${view.index})` : ''} where ${where}`;
}

function sampleValues(items: Item[], path: string): string {
  const seen = new Set<string>();
  for (const item of items) {
    if (!Object.prototype.hasOwnProperty.call(item, path)) continue;
    const value = item[path];
    if (!value) continue;
    const text = JSON.stringify(toModelValue(value));
    seen.add(text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}…` : text);
    if (seen.size >= VALUES_PER_ATTRIBUTE) break;
  }
  return seen.size > 0 ? ` e.g. ${[...seen].join(', ')}` : '';
}

/** The catalog as the model reads it: names and types always, a few values only when asked. */
export function catalogText(
  catalog: SqlCatalog,
  sampled: Map<string, Item[]>,
  includeSamples: boolean,
): string {
  const lines: string[] = ['Tables of this connection:'];
  for (const table of catalog.tables) {
    const items = sampled.get(table.name) ?? [];
    // Attribute and table names are data ("constructor", "__proto__"): Maps and own keys only.
    const types = new Map(Object.entries(attributePaths(items)));
    const listed = Object.hasOwn(catalog.attributes, table.name) ? catalog.attributes[table.name] : undefined;
    const known = new Set([...(listed ?? []), ...types.keys()]);
    lines.push(
      `- table "${table.name}": partition key ${keyText(table.keys.partitionKey)}${table.keys.sortKey ? `, sort key ${keyText(table.keys.sortKey)}` : ''}, about ${table.itemCount} items`,
    );
    for (const index of table.indexes)
      lines.push(
        `  index ${index.name}: partition key ${keyText(index.keys.partitionKey)}${index.keys.sortKey ? `, sort key ${keyText(index.keys.sortKey)}` : ''}`,
      );
    if (known.size > 0) {
      lines.push('  attributes:');
      for (const path of [...known].sort())
        lines.push(
          `    ${path}${types.has(path) ? ` (${(types.get(path) ?? []).join('|')})` : ''}${includeSamples ? sampleValues(items, path) : ''}`,
        );
    }
  }
  for (const view of catalog.views) lines.push(viewText(view));
  return lines.join('\n');
}

/**
 * What Ask, Fix and Explain send about the connection, built the same way for the preview.
 * `views`: the entity views the caller read once and also plans with, so the model and the
 * planner see the same views even if the file changes meanwhile.
 */
export async function assistContext(
  ctx: CoreContext,
  connectionId: string,
  includeSamples: boolean,
  signal: AbortSignal,
  views?: EntityView[],
): Promise<string> {
  views ??= await loadViews(ctx.dataDir, connectionId);
  const catalog = await sqlServiceFor(ctx).catalog(connectionId, views);
  const sampled = await sampleTables(
    ctx,
    connectionId,
    catalog.tables.map((t) => t.name),
    signal,
  );
  return catalogText(catalog, sampled, includeSamples);
}
