import type { Tool } from '@aws-sdk/client-bedrock-runtime';

/** The agent's tools: DynamoDB reads, SQL over the connection's tables, and write proposals. Nothing else exists. */
export type ToolName =
  | 'list_tables'
  | 'describe_table'
  | 'table_schema'
  | 'get_item'
  | 'query'
  | 'scan'
  | 'run_sql'
  | 'explain'
  | 'propose_changes';

const keyValue = {
  description: 'A key value as plain JSON: a string for S, a number or decimal string for N, base64 for B.',
  anyOf: [{ type: 'string' }, { type: 'number' }],
};

const sortCondition = {
  type: 'object',
  properties: {
    op: { type: 'string', enum: ['=', '<', '<=', '>', '>=', 'begins_with', 'between'] },
    value: keyValue,
    value2: keyValue,
  },
  required: ['op', 'value'],
};

const specs: Record<ToolName, { description: string; schema: Record<string, unknown> }> = {
  list_tables: {
    description:
      'Lists the DynamoDB tables of this connection with their key schema, indexes and approximate item counts.',
    schema: { type: 'object', properties: {}, additionalProperties: false },
  },
  describe_table: {
    description:
      'Describes one table: key schema, indexes, item count, and the attribute paths and types seen in a small sample of items.',
    schema: {
      type: 'object',
      properties: { table: { type: 'string' } },
      required: ['table'],
      additionalProperties: false,
    },
  },
  table_schema: {
    description:
      "The schema of a table or index as its items show it, per entity (SQL's views, found from key prefixes): for every attribute path, the share of items that have it, the share of each DynamoDB type, string formats (ISO dates, UUIDs, …), number ranges and the most common values. Drawn from a sample spread over random Scan segments, within the read budget.",
    schema: {
      type: 'object',
      properties: {
        table: { type: 'string' },
        index: { type: 'string', description: 'A GSI or LSI name; omit for the table.' },
        entity: { type: 'string', description: 'One entity (view) name; omit for every entity.' },
        sampleSize: {
          type: 'integer',
          minimum: 10,
          maximum: 5000,
          description: 'Items to sample (default 500).',
        },
      },
      required: ['table'],
      additionalProperties: false,
    },
  },
  get_item: {
    description: 'Reads one item by its full primary key.',
    schema: {
      type: 'object',
      properties: {
        table: { type: 'string' },
        partitionKey: keyValue,
        sortKey: keyValue,
      },
      required: ['table', 'partitionKey'],
      additionalProperties: false,
    },
  },
  query: {
    description:
      'Queries a table or index by partition key, optionally with a sort key condition. An index with a multi-attribute key (list_tables shows morePartitionKeys/moreSortKeys) needs a value for every partition attribute, in order (partitionKey, then morePartitionKeys), and takes sort conditions left to right (sortKey, then moreSortKeys), none skipped, = on each but the last. The items are stored as a result set; you receive its id, count, consumed capacity and a small sample. To count, sum or group, prefer run_sql.',
    schema: {
      type: 'object',
      properties: {
        table: { type: 'string' },
        index: { type: 'string', description: 'A GSI or LSI name; omit for the table.' },
        partitionKey: keyValue,
        sortKey: sortCondition,
        morePartitionKeys: {
          type: 'array',
          maxItems: 3,
          items: keyValue,
          description: "A multi-attribute key's 2nd to 4th partition attribute values, in order.",
        },
        moreSortKeys: {
          type: 'array',
          maxItems: 3,
          description: "Conditions on a multi-attribute key's 2nd to 4th sort attributes, in order.",
          items: sortCondition,
        },
        limit: { type: 'integer', minimum: 1, maximum: 100000 },
        newestFirst: { type: 'boolean' },
      },
      required: ['table', 'partitionKey'],
      additionalProperties: false,
    },
  },
  scan: {
    description:
      'Scans a table or index, bounded by limit. Prefer query when you know a partition key, and run_sql to count, sum or group. The items are stored as a result set.',
    schema: {
      type: 'object',
      properties: {
        table: { type: 'string' },
        index: { type: 'string' },
        limit: { type: 'integer', minimum: 1, maximum: 100000 },
      },
      required: ['table', 'limit'],
      additionalProperties: false,
    },
  },
  run_sql: {
    description:
      'Runs one read-only SQL SELECT (WHERE, JOIN, GROUP BY, aggregates, ORDER BY, LIMIT) over the DynamoDB tables of this connection, with exact decimal arithmetic. Key conditions in WHERE become Query or GetItem; anything else is a bounded Scan. Its reads count against your budget; data read before comes from a cache. Table names are DynamoDB table names (quote names with dashes or dots in double quotes); nested attributes are paths like address.city. You receive the columns, at most 50 rows and a resultSetId holding the whole result.',
    schema: {
      type: 'object',
      properties: { statement: { type: 'string' } },
      required: ['statement'],
      additionalProperties: false,
    },
  },
  explain: {
    description:
      'Explains a SQL SELECT without reading any item: for each DynamoDB read it would make, the operation (GetItem, Query or Scan), the table or index and key condition it uses and why, the estimated items and read capacity (RCU), whether the per-call budget would cut it short or refuse it, and, for a Scan, which key condition or index would serve it instead. Call it before run_sql or query when unsure what a read costs.',
    schema: {
      type: 'object',
      properties: { statement: { type: 'string', description: 'One SQL SELECT, as run_sql takes it.' } },
      required: ['statement'],
      additionalProperties: false,
    },
  },
  propose_changes: {
    description:
      'Proposes writes (put, update, delete) for the user to approve. Nothing is written unless the user approves the exact requests; every write is conditioned on the item still being as read.',
    schema: {
      type: 'object',
      properties: {
        reason: { type: 'string', description: 'One sentence the user will read on the approval card.' },
        changes: {
          type: 'array',
          maxItems: 25,
          items: {
            type: 'object',
            properties: {
              action: { type: 'string', enum: ['put', 'update', 'delete'] },
              table: { type: 'string' },
              partitionKey: keyValue,
              sortKey: keyValue,
              item: { type: 'object', description: 'put: the whole new item as plain JSON (keys included).' },
              set: {
                type: 'object',
                description: 'update: top-level attributes to set, as plain JSON values.',
              },
              remove: {
                type: 'array',
                items: { type: 'string' },
                description: 'update: top-level attributes to remove.',
              },
            },
            required: ['action', 'table', 'partitionKey'],
          },
        },
      },
      required: ['reason', 'changes'],
      additionalProperties: false,
    },
  },
};

/** One tool's description and JSON Schema: what Bedrock and MCP clients are both shown. */
export function toolSpec(name: ToolName): { description: string; schema: Record<string, unknown> } {
  return specs[name];
}

export function toolConfigFor(names: readonly ToolName[]): { tools: Tool[] } {
  return {
    tools: names.map((name) => ({
      toolSpec: {
        name,
        description: specs[name].description,
        inputSchema: { json: specs[name].schema as never },
      },
    })),
  };
}

export const readTools: readonly ToolName[] = [
  'list_tables',
  'describe_table',
  'table_schema',
  'get_item',
  'query',
  'scan',
  'run_sql',
];
