import type { Item } from '../../shared/dynamo/attribute-value';
import type { SchemaReport } from '../../shared/ipc/schema';
import type { SqlSavedQuery } from '../../shared/ipc/sql';
import type { KeySchema } from '../../shared/ipc/tables';

/**
 * Access patterns as MCP tools: each entity's key shape that the Schema view found
 * (`PK=USER#… SK=ORDER#…` becomes `orders_by_user(user, from, to)`) and each saved SQL query
 * becomes a named, typed tool, so an agent rarely needs a raw Query, Scan or SELECT. Pure: the
 * reports and saved queries are read by the caller (access-pattern-tools.ts).
 */

export interface PatternParam {
  name: string;
  description: string;
  type: 'string' | 'number' | 'boolean';
  isRequired: boolean;
}

/** What one call of the tool runs: the query tool, or run_sql, with this input. */
export interface PatternCall {
  tool: 'query' | 'run_sql';
  input: Record<string, unknown>;
}

export interface AccessPattern {
  name: string;
  description: string;
  source: 'schema' | 'saved-query';
  /** The table it reads (saved queries: the tables their SELECT names, checked when run). */
  table?: string;
  index?: string;
  /** The key template it fills in, e.g. `PK=USER#<user> SK=ORDER#<from…to>`. */
  template: string;
  params: PatternParam[];
  toCall(args: Record<string, unknown>): PatternCall;
  /**
   * The arguments that read on after `last`, the last item of a call its cap cut short (`from`,
   * or `to` newest first; inclusive, so that item comes again); undefined when there is no range.
   */
  nextArgs?(args: Record<string, unknown>, last: Item): Record<string, unknown> | undefined;
}

/** MCP tool names: letters, digits, `_` and `-`, at most 64 (we keep to lowercase and `_`). */
export function toolName(text: string): string {
  return (
    text
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60) || 'pattern'
  );
}

/** One key attribute's shape as the Schema view writes it: `USER#…`, `PROFILE`, `…`, `<number>`. */
type Shape = { kind: 'prefix'; prefix: string } | { kind: 'constant'; value: string } | { kind: 'any' };

function shapeOf(text: string): Shape | undefined {
  if (text.endsWith('…') && text.length > 1) return { kind: 'prefix', prefix: text.slice(0, -1) };
  if (/^[A-Z][A-Z0-9_]{1,39}$/.test(text)) return { kind: 'constant', value: text };
  if (text === '…' || text === '<number>') return { kind: 'any' };
  return undefined;
}

/** `PK=USER#… SK=ORDER#…` read back with the key names known, so a name may hold spaces. */
function parsePattern(pattern: string, keys: KeySchema): { pk: Shape; sk?: Shape } | undefined {
  const pkHead = `${keys.partitionKey.name}=`;
  if (!pattern.startsWith(pkHead)) return undefined;
  const rest = pattern.slice(pkHead.length);
  if (!keys.sortKey) {
    const pk = shapeOf(rest);
    return pk ? { pk } : undefined;
  }
  const skHead = ` ${keys.sortKey.name}=`;
  const at = rest.lastIndexOf(skHead);
  if (at < 0) return undefined;
  const pk = shapeOf(rest.slice(0, at));
  const sk = shapeOf(rest.slice(at + skHead.length));
  return pk && sk ? { pk, sk } : undefined;
}

/** `USER#` → `user`; `ORDER_LINE:` → `order_line`. */
const wordOf = (prefix: string): string => toolName(prefix.replace(/[#|:]+$/, ''));

/** The highest code point: `prefix` + it is above every key that starts with the prefix. */
const AFTER_ALL = '\u{10FFFF}';

function keyPatternOf(
  entity: string,
  table: string,
  index: string | undefined,
  keys: KeySchema,
  pattern: string,
): AccessPattern | undefined {
  if (keys.morePartitionKeys?.length || keys.moreSortKeys?.length) return undefined;
  const parsed = parsePattern(pattern, keys);
  // A partition key with no template ("…") is not an access pattern: any value would do.
  if (!parsed || parsed.pk.kind === 'any') return undefined;
  const { pk, sk } = parsed;
  const pkName = keys.partitionKey.name;
  const skInfo = keys.sortKey;
  const pkWord = pk.kind === 'prefix' ? wordOf(pk.prefix) : toolName(pk.value);
  const params: PatternParam[] = [];
  if (pk.kind === 'prefix')
    params.push({
      name: pkWord,
      description: `The part of ${pkName} after "${pk.prefix}" (${pkName} = "${pk.prefix}<${pkWord}>").`,
      type: keys.partitionKey.type === 'N' ? 'number' : 'string',
      isRequired: true,
    });
  if (skInfo && sk && sk.kind !== 'constant') {
    const skPrefix = sk.kind === 'prefix' ? sk.prefix : '';
    const after = skPrefix ? ` after "${skPrefix}"` : '';
    const type = skInfo.type === 'N' ? 'number' : 'string';
    params.push(
      { name: 'from', description: `Lowest ${skInfo.name}${after}, inclusive.`, type, isRequired: false },
      { name: 'to', description: `Highest ${skInfo.name}${after}, inclusive.`, type, isRequired: false },
      {
        name: 'limit',
        description: 'Items to return at most (the tool has its own cap).',
        type: 'number',
        isRequired: false,
      },
      {
        name: 'newestFirst',
        description: `Descending ${skInfo.name} order.`,
        type: 'boolean',
        isRequired: false,
      },
    );
  }
  const pkTemplate = pk.kind === 'prefix' ? `${pk.prefix}<${pkWord}>` : pk.value;
  const skTemplate =
    skInfo && sk
      ? sk.kind === 'constant'
        ? ` ${skInfo.name}=${sk.value}`
        : ` ${skInfo.name}=${sk.kind === 'prefix' ? sk.prefix : ''}<from…to>`
      : '';
  const template = `${pkName}=${pkTemplate}${skTemplate}`;
  const where = index ? `the index ${index} of ${table}` : table;
  // An entity's name can be a type attribute's value, written by whoever wrote the items: only
  // its tool-name form (letters, digits, _) reaches a name or a description an agent reads.
  const word = toolName(entity);
  const name = `${word}_by_${pkWord}`.slice(0, 64);
  return {
    name,
    source: 'schema',
    table,
    ...(index ? { index } : {}),
    template,
    params,
    description: `The ${word} items of ${where} by their key template ${template}, as the Schema view found them: one Query, never a Scan.`,
    toCall(args) {
      const partitionKey = pk.kind === 'prefix' ? `${pk.prefix}${String(args[pkWord])}` : pk.value;
      const input: Record<string, unknown> = { table, partitionKey };
      if (index) input.index = index;
      if (typeof args.limit === 'number') input.limit = args.limit;
      if (args.newestFirst === true) input.newestFirst = true;
      if (sk?.kind === 'constant') input.sortKey = { op: '=', value: sk.value };
      else if (sk && skInfo) {
        const prefix = sk.kind === 'prefix' ? sk.prefix : '';
        const isNumber = skInfo.type === 'N';
        const bound = (value: unknown) => (isNumber ? value : `${prefix}${String(value)}`);
        const hasFrom = args.from !== undefined && args.from !== null && args.from !== '';
        const hasTo = args.to !== undefined && args.to !== null && args.to !== '';
        if (hasFrom && hasTo)
          input.sortKey = { op: 'between', value: bound(args.from), value2: bound(args.to) };
        else if (hasFrom)
          input.sortKey = prefix
            ? { op: 'between', value: bound(args.from), value2: `${prefix}${AFTER_ALL}` }
            : { op: '>=', value: bound(args.from) };
        else if (hasTo)
          input.sortKey = prefix
            ? { op: 'between', value: prefix, value2: bound(args.to) }
            : { op: '<=', value: bound(args.to) };
        else if (prefix) input.sortKey = { op: 'begins_with', value: prefix };
      }
      return { tool: 'query', input };
    },
    nextArgs(args, last) {
      if (!sk || sk.kind === 'constant' || !skInfo) return undefined;
      const value = last[skInfo.name];
      const raw = value && 'S' in value ? value.S : value && 'N' in value ? value.N : undefined;
      const prefix = sk.kind === 'prefix' ? sk.prefix : '';
      if (raw === undefined || !raw.startsWith(prefix)) return undefined;
      const bound = skInfo.type === 'N' ? Number(raw) : raw.slice(prefix.length);
      return args.newestFirst === true ? { ...args, to: bound } : { ...args, from: bound };
    },
  };
}

/** Every entity's most common key shape, in the table and in each index that holds it. */
export function schemaPatterns(report: SchemaReport): AccessPattern[] {
  if (report.index !== undefined) return [];
  const patterns: AccessPattern[] = [];
  for (const entity of report.entities) {
    const table = keyPatternOf(entity.name, report.table, undefined, report.keys, entity.keyPattern);
    if (table) patterns.push(table);
    for (const index of report.indexes ?? []) {
      // indexPatterns come sorted by index, then most common first.
      const top = entity.indexPatterns?.find((p) => p.index === index.name);
      const found = top && keyPatternOf(entity.name, report.table, index.name, index.keys, top.pattern);
      if (found) patterns.push(found);
    }
  }
  return patterns;
}

/** `{{customerId}}` in a saved query: a parameter, given as a string and written as a SQL literal. */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,39})\s*\}\}/g;

/** A SQL string literal: quotes doubled, so a value can never end the literal. */
const sqlString = (value: unknown): string => `'${String(value).replace(/'/g, "''")}'`;

/** Each saved query (SQL workbench, "Save") as a tool; `{{name}}` placeholders become its parameters. */
export function savedQueryPatterns(queries: SqlSavedQuery[]): AccessPattern[] {
  return queries.map((query) => {
    const names = [...new Set([...query.sql.matchAll(PLACEHOLDER)].map((m) => m[1] as string))];
    return {
      name: toolName(query.name),
      source: 'saved-query',
      template: query.sql,
      params: names.map((name) => ({
        name,
        description: `Put into the query as a SQL string literal where it says {{${name}}}.`,
        type: 'string',
        isRequired: true,
      })),
      description: `The saved query "${query.name}": ${query.sql.replace(/\s+/g, ' ').slice(0, 300)}`,
      toCall(args) {
        const statement = query.sql.replace(PLACEHOLDER, (_m, name: string) => sqlString(args[name]));
        return { tool: 'run_sql', input: { statement } };
      },
    };
  });
}
