import { randomUUID } from 'node:crypto';
import { partitionAttributes, sortAttributes } from '../../../shared/dynamo/key-model';
import type { AttributeSchema, SchemaReport } from '../../../shared/ipc/schema';
import type { KeySchema } from '../../../shared/ipc/tables';
import type { EntityView, SqlCatalog } from '../../../shared/sql/catalog';
import type { CoreContext, ServiceSlot } from '../../core/context';
import { loadViews } from '../../sql/files/view-store';
import { sqlServiceFor } from '../../sql/service-registry';
import { analyzeSchema } from '../../schema/analyze';
import { latestSchemaReport } from '../../schema/service';
import { toModelValue } from '../plain-values';

/** A table without a saved Schema read is sampled this much (the schema view's fair sample). */
const SAMPLE_ITEMS = 100;
const SAMPLE_SEGMENTS = 10;
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

/**
 * The schema of each table as the Schema view sees it (for Ask, and for the Athena path's Glue
 * table): its newest saved read, else a sample drawn the way the Schema tab draws one (spread
 * over Scan segments), kept a few minutes.
 */
export async function tableSchemas(
  ctx: CoreContext,
  connectionId: string,
  tables: string[],
  signal: AbortSignal,
): Promise<Map<string, SchemaReport>> {
  const cache = ctx.services.get(samplesSlot);
  const out = new Map<string, SchemaReport>();
  for (const table of tables.slice(0, SAMPLE_TABLES)) {
    const saved = await latestSchemaReport(ctx, connectionId, table);
    if (saved) {
      out.set(table, saved);
      continue;
    }
    const key = JSON.stringify([connectionId, table]);
    const cached = cache.get(key);
    if (cached && Date.now() - cached.at < SAMPLE_TTL_MS) {
      out.set(table, cached.report);
      continue;
    }
    const { report } = await analyzeSchema({
      client: await ctx.clients.dynamo(connectionId),
      table,
      mode: 'sample',
      scanId: `ask_${randomUUID()}`,
      signal,
      sampleSize: SAMPLE_ITEMS,
      segments: SAMPLE_SEGMENTS,
    });
    cache.set(key, { at: Date.now(), report });
    out.set(table, report);
  }
  return out;
}

/** A key's partition and sort attributes in order (a multi-attribute GSI key names up to four of each). */
function keysText(keys: KeySchema): string {
  const text = (attributes: { name: string; type: string }[]): string =>
    attributes.map((a) => `${a.name} (${a.type})`).join(' + ');
  const sort = sortAttributes(keys);
  const partition = partitionAttributes(keys);
  return `partition key ${text(partition)}${partition.length > 1 ? ' (= on every one to query it)' : ''}${sort.length > 0 ? `, sort key ${text(sort)}` : ''}`;
}

function viewText(view: EntityView): string {
  const where = view.conditions
    .map(
      (c) => `${c.attribute} ${c.op} ${c.values.map((v) => JSON.stringify(toModelValue(v))).join(' and ')}`,
    )
    .join(' and ');
  return `- entity view ${view.name}: the items of "${view.table}"${view.index ? ` (index ${view.index})` : ''} where ${where}`;
}

const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** `(S)`, or `(S 92%|N 8%)` for a path holding several types, as counted by the schema read. */
function typesText(attribute: AttributeSchema): string {
  const types = Object.entries(attribute.types).sort((a, b) => b[1] - a[1]);
  if (types.length === 1) return ` (${types[0]![0]})`;
  const values = types.reduce((sum, [, n]) => sum + n, 0) || 1;
  return ` (${types.map(([type, n]) => `${type} ${percent(n / values)}`).join('|')})`;
}

function valuesText(attribute: AttributeSchema): string {
  const seen = (attribute.topValues ?? []).slice(0, VALUES_PER_ATTRIBUTE).map(({ type, value }) => {
    const text = JSON.stringify(type === 'N' ? Number(value) : value);
    return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}…` : text;
  });
  return seen.length > 0 ? ` e.g. ${seen.join(', ')}` : '';
}

/** The catalog as the model reads it: names and types always, a few values only when asked. */
export function catalogText(
  catalog: SqlCatalog,
  schemas: ReadonlyMap<string, SchemaReport>,
  includeSamples: boolean,
): string {
  const lines: string[] = ['Tables of this connection:'];
  for (const table of catalog.tables) {
    const report = schemas.get(table.name);
    // Attribute and table names are data ("constructor", "__proto__"): Maps and own keys only.
    const described = new Map((report?.attributes ?? []).map((a) => [a.path, a]));
    const listed = Object.hasOwn(catalog.attributes, table.name) ? catalog.attributes[table.name] : undefined;
    const known = new Set([...described.keys(), ...(listed ?? [])]);
    lines.push(`- table "${table.name}": ${keysText(table.keys)}, about ${table.itemCount} items`);
    for (const index of table.indexes) lines.push(`  index ${index.name}: ${keysText(index.keys)}`);
    if (known.size > 0) {
      lines.push(
        report
          ? `  attributes (${report.sampled ? `a sample of ${report.itemsScanned} items` : `all ${report.itemsScanned} items`}):`
          : '  attributes:',
      );
      for (const path of known) {
        const attribute = described.get(path);
        lines.push(
          attribute
            ? `    ${path}${typesText(attribute)}${attribute.share < 1 ? `, in ${percent(attribute.share)} of items` : ''}${includeSamples ? valuesText(attribute) : ''}`
            : `    ${path}`,
        );
      }
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
  const schemas = await tableSchemas(
    ctx,
    connectionId,
    catalog.tables.map((t) => t.name),
    signal,
  );
  return catalogText(catalog, schemas, includeSamples);
}

/** Tables sampled for Ask when no saved read exists, by [connectionId, table], with when. */
const samplesSlot: ServiceSlot<Map<string, { at: number; report: SchemaReport }>> = {
  name: 'askSchemaSamples',
  create: () => new Map(),
};
