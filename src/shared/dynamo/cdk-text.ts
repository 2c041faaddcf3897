import { partitionAttributes, sortAttributes, type KeyParts } from './key-model';
import type {
  GlobalIndexDefinition,
  KeyAttribute,
  LocalIndexDefinition,
  ProjectionDefinition,
  TableDefinition,
} from './table-definition';

/**
 * AWS CDK (TypeScript, aws-cdk-lib) text of what table admin creates: a table with its indexes,
 * or one global index added to a table. A multi-attribute key is written with CDK's
 * `partitionKeys`/`sortKeys` lists (in KeySchema order), a single-attribute one with
 * `partitionKey`/`sortKey`. Names are JSON-quoted, so `__proto__`, `a.b` or `#x` stay data.
 */
const CDK_TYPES = { S: 'STRING', N: 'NUMBER', B: 'BINARY' } as const;

const quote = (text: string): string => JSON.stringify(text);

function attribute(a: KeyAttribute): string {
  return `{ name: ${quote(a.name)}, type: dynamodb.AttributeType.${CDK_TYPES[a.type]} }`;
}

/** The key's lines at `indent`: one attribute of a kind as `partitionKey`, several as `partitionKeys`. */
function keyLines(keys: KeyParts, indent: string): string[] {
  const lines: string[] = [];
  for (const [single, list, attributes] of [
    ['partitionKey', 'partitionKeys', partitionAttributes(keys)],
    ['sortKey', 'sortKeys', sortAttributes(keys)],
  ] as const) {
    if (attributes.length === 1)
      lines.push(`${indent}${single}: ${attribute(attributes[0] as KeyAttribute)},`);
    else if (attributes.length > 1)
      lines.push(
        `${indent}${list}: [`,
        ...attributes.map((a) => `${indent}  ${attribute(a)},`),
        `${indent}],`,
      );
  }
  return lines;
}

function projectionLines(projection: ProjectionDefinition, indent: string): string[] {
  return [
    `${indent}projectionType: dynamodb.ProjectionType.${projection.type},`,
    ...(projection.type === 'INCLUDE'
      ? [`${indent}nonKeyAttributes: [${(projection.attributes ?? []).map(quote).join(', ')}],`]
      : []),
  ];
}

/** `table.addGlobalSecondaryIndex({...})` for one global index (`isProvisioned`: with its capacity). */
export function globalIndexCdkText(index: GlobalIndexDefinition, isProvisioned = false): string {
  return [
    'table.addGlobalSecondaryIndex({',
    `  indexName: ${quote(index.name)},`,
    ...keyLines(index, '  '),
    ...projectionLines(index.projection, '  '),
    ...(isProvisioned
      ? [`  readCapacity: ${index.readCapacity ?? 1},`, `  writeCapacity: ${index.writeCapacity ?? 1},`]
      : []),
    '});',
  ].join('\n');
}

function localIndexCdkText(index: LocalIndexDefinition): string {
  return [
    'table.addLocalSecondaryIndex({',
    `  indexName: ${quote(index.name)},`,
    `  sortKey: ${attribute(index.sortKey)},`,
    ...projectionLines(index.projection, '  '),
    '});',
  ].join('\n');
}

/** The whole table as a CDK `dynamodb.Table` in a stack, its indexes added after it. */
export function tableCdkText(definition: TableDefinition): string {
  const isProvisioned = definition.billingMode === 'PROVISIONED';
  const ttl = definition.ttlAttribute?.trim();
  const props = [
    `  tableName: ${quote(definition.name)},`,
    ...keyLines(definition, '  '),
    `  billingMode: dynamodb.BillingMode.${definition.billingMode},`,
    ...(isProvisioned
      ? [
          `  readCapacity: ${definition.readCapacity ?? 1},`,
          `  writeCapacity: ${definition.writeCapacity ?? 1},`,
        ]
      : []),
    ...(definition.streamViewType ? [`  stream: dynamodb.StreamViewType.${definition.streamViewType},`] : []),
    ...(ttl ? [`  timeToLiveAttribute: ${quote(ttl)},`] : []),
    ...(definition.deletionProtection ? ['  deletionProtection: true,'] : []),
    ...(definition.tableClass !== 'STANDARD'
      ? [`  tableClass: dynamodb.TableClass.${definition.tableClass},`]
      : []),
  ];
  const logicalId = definition.name.replace(/[^A-Za-z0-9]/g, '') || 'Table';
  return [
    ...(definition.tags.length > 0 ? ["import * as cdk from 'aws-cdk-lib';"] : []),
    "import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';",
    '',
    '// Inside your stack:',
    `const table = new dynamodb.Table(this, ${quote(logicalId)}, {`,
    ...props,
    '});',
    ...definition.globalIndexes.map((g) => globalIndexCdkText(g, isProvisioned)),
    ...definition.localIndexes.map(localIndexCdkText),
    ...definition.tags.map((t) => `cdk.Tags.of(table).add(${quote(t.key)}, ${quote(t.value)});`),
  ].join('\n');
}
