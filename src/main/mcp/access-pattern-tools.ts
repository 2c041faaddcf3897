import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { SchemaReport } from '../../shared/ipc/schema';
import type { ToolName } from '../agent/tool-specs';
import { latestSchemaReport } from '../schema/service';
import { schemaStore } from '../schema/schema-store';
import { listSavedQueries } from '../sql/files/query-files';
import { type AccessPattern, savedQueryPatterns, schemaPatterns, toolName } from './access-patterns';
import type { McpLimits, McpToolSession } from './tool-session';
import { toolAnnotations } from './tool-annotations';

/**
 * A named pattern is a narrow read, so it has its own cap, below the connection's per-call
 * budgets: an agent that calls it in a loop spends little each time, and a pattern that would
 * read more says so (budgetReached) rather than reading on.
 */
export const PATTERN_CAP: McpLimits = { maxItems: 100, maxRcu: 10 };

export function patternCap(session: McpToolSession): McpLimits {
  return {
    maxItems: Math.min(PATTERN_CAP.maxItems, session.options.maxItems),
    maxRcu: Math.min(PATTERN_CAP.maxRcu, session.options.maxRcu),
  };
}

/** The access patterns of one session now, with what they were derived from. */
export interface SessionPatterns {
  patterns: AccessPattern[];
  /** The newest Schema-view report per table, for the schema resource. */
  reports: SchemaReport[];
}

/** Tables whose schema to look for: the allow-list, else every table the Schema view has read here. */
async function tablesToRead(session: McpToolSession): Promise<string[]> {
  const { options } = session;
  if (options.tables.length > 0) return options.tables;
  const summaries = await schemaStore(options.ctx).list();
  return [
    ...new Set(summaries.filter((s) => s.connectionId === options.connection.id).map((s) => s.table)),
  ].slice(0, 50);
}

/**
 * Reads the Schema view's newest report of each table and the connection's saved queries, and
 * turns them into tools. Names never shadow a built-in tool, and a second pattern of the same
 * name gets a number. Saved queries need run_sql (they run through it, with its guards).
 */
export async function sessionPatterns(session: McpToolSession): Promise<SessionPatterns> {
  const { ctx, connection } = session.options;
  const reports: SchemaReport[] = [];
  for (const table of await tablesToRead(session)) {
    const report = await latestSchemaReport(ctx, connection.id, table);
    if (report && session.isTableAllowed(report.table)) reports.push(report);
  }
  const found = reports.flatMap(schemaPatterns);
  if (session.allowed.includes('run_sql'))
    found.push(...savedQueryPatterns(await listSavedQueries(ctx.dataDir, connection.id).catch(() => [])));
  const taken = new Set<string>(Object.keys(toolAnnotations));
  const patterns: AccessPattern[] = [];
  for (const pattern of found) {
    let name = pattern.name;
    // The same entity and key word in the table and an index: the index's says where it reads.
    if (taken.has(name) && pattern.index) name = `${name}_in_${toolName(pattern.index)}`.slice(0, 64);
    for (let n = 2; taken.has(name); n++) name = `${pattern.name.slice(0, 60)}_${n}`;
    taken.add(name);
    patterns.push({ ...pattern, name });
  }
  return { patterns, reports };
}

/** The tools/list entry of a pattern: typed parameters, its cap, read-only hints. */
export function patternTool(pattern: AccessPattern, cap: McpLimits, suffix: string): Tool {
  const properties = Object.fromEntries(
    pattern.params.map((p) => [p.name, { type: p.type, description: p.description }]),
  );
  const runs: ToolName = pattern.source === 'schema' ? 'query' : 'run_sql';
  return {
    name: pattern.name,
    description: `${pattern.description} At most ${cap.maxItems} items and ${cap.maxRcu} RCU per call (this tool's own cap). Answers as ${runs} does. ${suffix}`,
    inputSchema: {
      type: 'object',
      properties,
      required: pattern.params.filter((p) => p.isRequired).map((p) => p.name),
      additionalProperties: false,
    },
    annotations: { ...toolAnnotations[runs], title: `Access pattern: ${pattern.name}` },
  };
}

/**
 * What an agent is told when a pattern's own cap cut its read short: that it was the cap, and
 * how to read on (the same tool from the last item's sort key, or the built-in tool that has the
 * connection's per-call budget).
 */
export async function cutByCap(
  session: McpToolSession,
  pattern: AccessPattern,
  args: Record<string, unknown>,
  result: Record<string, unknown>,
): Promise<string> {
  const cap = patternCap(session);
  const { resultSetId, count } = result;
  const last =
    typeof resultSetId === 'string' && typeof count === 'number' && count > 0
      ? (await session.options.ctx.resultSets.window(resultSetId, count - 1, 1)).rows[0]
      : undefined;
  const next = last && pattern.nextArgs?.(args, last);
  const builtIn = pattern.source === 'schema' ? 'query' : 'run_sql';
  return [
    `This tool's own cap (${cap.maxItems} items and ${cap.maxRcu} RCU per call) cut the read short: these are the first ${String(count)} items of its answer, in order.`,
    next
      ? `To read on, call ${pattern.name} again with ${JSON.stringify(next)} (inclusive: its first item is the last one here).`
      : `To read on, narrow the call, or run it with ${builtIn}, which has the connection's per-call budget.`,
  ].join(' ');
}

/** What a report's entities and key templates look like to an agent (the schema resource). */
export function schemaResource(report: SchemaReport, patterns: AccessPattern[]): Record<string, unknown> {
  const mine = patterns.filter((p) => p.source === 'schema' && p.table === report.table);
  return {
    table: report.table,
    keys: report.keys,
    indexes: (report.indexes ?? []).map((i) => ({ name: i.name, kind: i.kind, keys: i.keys })),
    itemsSampled: report.itemsScanned,
    entities: report.entities.map((e) => ({
      name: e.name,
      items: e.items,
      keyPattern: e.keyPattern,
      keyPatterns: e.keyPatterns,
      indexPatterns: e.indexPatterns ?? [],
      attributes: e.attributes.map((a) => a.path).slice(0, 100),
    })),
    accessPatterns: mine.map((p) => ({
      tool: p.name,
      template: p.template,
      ...(p.index ? { index: p.index } : {}),
      params: p.params.map((x) => x.name),
    })),
  };
}
