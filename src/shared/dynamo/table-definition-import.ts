import {
  blankDefinition,
  type KeyAttribute,
  type KeyType,
  type ProjectionDefinition,
  type StreamViewType,
  type TableDefinition,
} from './table-definition';
import { isMultiAttribute, keysFromElements } from './key-model';

/**
 * Turns what a user pastes or copies into the form's model: a CreateTable request (SDK or
 * `aws dynamodb create-table --cli-input-json`), a DescribeTable answer (copying a table), or
 * an AWS::DynamoDB::Table CloudFormation resource (a template, a CDK-synthesized template, one
 * resource, or its Properties). They share DynamoDB's field names, so one reader serves all;
 * what the form cannot carry comes back as a sentence in `notes` rather than vanishing.
 */
export interface ImportResult {
  definition: TableDefinition;
  source: 'CreateTable' | 'DescribeTable' | 'CloudFormation';
  notes: string[];
}

export class ImportProblem extends Error {}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** CloudFormation accepts "true"/"5" where the API wants true/5. */
function bool(value: unknown): boolean {
  return value === true || value === 'true';
}
function num(value: unknown): number | undefined {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

export function parseTableText(text: string): ImportResult {
  const trimmed = text.trim();
  if (trimmed === '') throw new ImportProblem('Paste a CreateTable JSON or a CloudFormation resource first.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch (error) {
    const yamlHint = /^(Resources|AWSTemplateFormatVersion|Type)\s*:/m.test(trimmed)
      ? ' This looks like YAML: paste the template as JSON (cdk synth --json, or cdk.out/*.template.json).'
      : '';
    throw new ImportProblem(`This is not valid JSON: ${(error as Error).message}.${yamlHint}`);
  }
  if (!isObject(parsed)) throw new ImportProblem('Paste a JSON object, not a list or a single value.');
  return importTableObject(parsed);
}

export function importTableObject(object: Json): ImportResult {
  if (isObject(object.Resources)) return fromTemplate(object.Resources);
  if (object.Type !== undefined) return fromResource(object, 'the resource');
  if (isObject(object.Table)) return fromApiShape(object.Table, 'DescribeTable', ttlOf(object));
  if (isObject(object.TableDescription)) return fromApiShape(object.TableDescription, 'DescribeTable');
  if (object.TableStatus !== undefined || object.BillingModeSummary !== undefined)
    return fromApiShape(object, 'DescribeTable');
  if (object.KeySchema !== undefined && looksLikeCloudFormation(object))
    return fromApiShape(object, 'CloudFormation');
  if (object.KeySchema !== undefined) return fromApiShape(object, 'CreateTable');
  throw new ImportProblem(
    'DynoTable found no table in this JSON: it needs a KeySchema, a Resources section with an AWS::DynamoDB::Table, or a DescribeTable answer.',
  );
}

/** A DescribeTable answer joined with the TTL description, as tables:describe returns both. */
export function definitionFromDescription(raw: Record<string, unknown>, newName: string): ImportResult {
  const table = isObject(raw.Table) ? raw.Table : {};
  const result = fromApiShape(table, 'DescribeTable', ttlOf(raw));
  result.definition.name = newName;
  return result;
}

function ttlOf(raw: Json): string | undefined {
  const ttl = isObject(raw.TimeToLiveDescription) ? raw.TimeToLiveDescription : undefined;
  return ttl && (ttl.TimeToLiveStatus === 'ENABLED' || ttl.TimeToLiveStatus === 'ENABLING')
    ? (ttl.AttributeName as string | undefined)
    : undefined;
}

function looksLikeCloudFormation(properties: Json): boolean {
  return (
    isObject(properties.TimeToLiveSpecification) ||
    isObject(properties.PointInTimeRecoverySpecification) ||
    (isObject(properties.StreamSpecification) && properties.StreamSpecification.StreamEnabled === undefined)
  );
}

function fromTemplate(resources: Json): ImportResult {
  const tables = Object.entries(resources).filter(
    ([, r]) => isObject(r) && (r.Type === 'AWS::DynamoDB::Table' || r.Type === 'AWS::DynamoDB::GlobalTable'),
  );
  if (tables.length === 0) throw new ImportProblem('The template has no AWS::DynamoDB::Table resource.');
  const [logicalId, resource] = tables[0] as [string, Json];
  const result = fromResource(resource, logicalId);
  if (tables.length > 1)
    result.notes.push(
      `The template has ${tables.length} tables; DynoTable read the first, ${logicalId}. Paste one resource to pick another.`,
    );
  return result;
}

function fromResource(resource: Json, logicalId: string): ImportResult {
  if (resource.Type === 'AWS::DynamoDB::GlobalTable')
    throw new ImportProblem(
      `${logicalId} is an AWS::DynamoDB::GlobalTable; DynoTable creates single-region tables (AWS::DynamoDB::Table).`,
    );
  if (resource.Type !== 'AWS::DynamoDB::Table')
    throw new ImportProblem(`${logicalId} is ${String(resource.Type)}, not an AWS::DynamoDB::Table.`);
  const properties = isObject(resource.Properties) ? resource.Properties : {};
  return fromApiShape(properties, 'CloudFormation');
}

function name(value: unknown, notes: string[], what: string): string {
  if (typeof value === 'string') return value;
  if (value !== undefined)
    notes.push(`${what} is a CloudFormation expression (Ref, Fn::Sub…); type the name it resolves to.`);
  return '';
}

function fromApiShape(
  shape: Json,
  source: ImportResult['source'],
  ttlFromDescription?: string,
): ImportResult {
  const notes: string[] = [];
  const definition = blankDefinition();
  const types = new Map<string, KeyType>();
  for (const d of list(shape.AttributeDefinitions)) {
    const type = d.AttributeType;
    if (typeof d.AttributeName === 'string' && (type === 'S' || type === 'N' || type === 'B'))
      types.set(d.AttributeName, type);
  }
  const keyAttribute = (attributeName: string): KeyAttribute => {
    const type = types.get(attributeName);
    if (!type)
      notes.push(`"${attributeName}" is a key but AttributeDefinitions gives it no type; S was assumed.`);
    return { name: attributeName, type: type ?? 'S' };
  };
  const keys = (schema: unknown) => keysFromElements(list(schema), (n) => keyAttribute(n).type);

  definition.name = name(shape.TableName, notes, 'TableName');
  const tableKeys = keys(shape.KeySchema);
  if (!tableKeys) throw new ImportProblem('The KeySchema has no HASH (partition) key.');
  definition.partitionKey = tableKeys.partitionKey;
  definition.sortKey = tableKeys.sortKey;
  if (isMultiAttribute(tableKeys))
    notes.push(
      "The table's KeySchema names more than one HASH or RANGE attribute; a table has one of each (only a global secondary index may have up to four), so DynoTable kept the first of each.",
    );

  const billing = isObject(shape.BillingModeSummary)
    ? shape.BillingModeSummary.BillingMode
    : shape.BillingMode;
  const throughput = isObject(shape.ProvisionedThroughput) ? shape.ProvisionedThroughput : undefined;
  // A DescribeTable of an on-demand table reports 0/0 throughput; no BillingMode means provisioned.
  definition.billingMode = billing === 'PAY_PER_REQUEST' ? 'PAY_PER_REQUEST' : 'PROVISIONED';
  if (definition.billingMode === 'PROVISIONED') {
    definition.readCapacity = num(throughput?.ReadCapacityUnits);
    definition.writeCapacity = num(throughput?.WriteCapacityUnits);
  }

  definition.globalIndexes = list(shape.GlobalSecondaryIndexes).map((g) => {
    const k = keys(g.KeySchema);
    const gt = isObject(g.ProvisionedThroughput) ? g.ProvisionedThroughput : undefined;
    return {
      name: typeof g.IndexName === 'string' ? g.IndexName : '',
      ...(k ?? { partitionKey: { name: '', type: 'S' as const } }),
      projection: projectionFrom(g.Projection),
      ...(definition.billingMode === 'PROVISIONED'
        ? { readCapacity: num(gt?.ReadCapacityUnits), writeCapacity: num(gt?.WriteCapacityUnits) }
        : {}),
    };
  });
  definition.localIndexes = list(shape.LocalSecondaryIndexes).map((l) => ({
    name: typeof l.IndexName === 'string' ? l.IndexName : '',
    sortKey: keys(l.KeySchema)?.sortKey ?? { name: '', type: 'S' },
    projection: projectionFrom(l.Projection),
  }));

  const stream = isObject(shape.StreamSpecification) ? shape.StreamSpecification : undefined;
  const isStreamOn = stream && (stream.StreamEnabled === undefined ? true : bool(stream.StreamEnabled));
  if (isStreamOn && isViewType(stream.StreamViewType)) definition.streamViewType = stream.StreamViewType;

  const tableClass = isObject(shape.TableClassSummary)
    ? shape.TableClassSummary.TableClass
    : shape.TableClass;
  if (tableClass === 'STANDARD_INFREQUENT_ACCESS') definition.tableClass = tableClass;
  definition.deletionProtection = bool(shape.DeletionProtectionEnabled);
  definition.tags = list(shape.Tags).flatMap((t) =>
    typeof t.Key === 'string' ? [{ key: t.Key, value: typeof t.Value === 'string' ? t.Value : '' }] : [],
  );

  const ttl = isObject(shape.TimeToLiveSpecification) ? shape.TimeToLiveSpecification : undefined;
  if (ttl && bool(ttl.Enabled) && typeof ttl.AttributeName === 'string')
    definition.ttlAttribute = ttl.AttributeName;
  if (ttlFromDescription) definition.ttlAttribute = ttlFromDescription;

  const pitr = isObject(shape.PointInTimeRecoverySpecification)
    ? shape.PointInTimeRecoverySpecification
    : undefined;
  if (pitr && bool(pitr.PointInTimeRecoveryEnabled))
    notes.push('Point-in-time recovery is switched on after creation: use Change → Point-in-time recovery.');
  for (const unsupported of [
    'SSESpecification',
    'KinesisStreamSpecification',
    'ImportSourceSpecification',
    'ResourcePolicy',
    'ContributorInsightsSpecification',
  ])
    if (shape[unsupported] !== undefined)
      notes.push(`${unsupported} is not part of this form and was left out.`);
  return { definition, source, notes };
}

function isViewType(value: unknown): value is StreamViewType {
  return (
    value === 'NEW_IMAGE' || value === 'OLD_IMAGE' || value === 'NEW_AND_OLD_IMAGES' || value === 'KEYS_ONLY'
  );
}

function projectionFrom(value: unknown): ProjectionDefinition {
  const p = isObject(value) ? value : {};
  if (p.ProjectionType === 'INCLUDE')
    return {
      type: 'INCLUDE',
      attributes: Array.isArray(p.NonKeyAttributes)
        ? p.NonKeyAttributes.filter((a): a is string => typeof a === 'string')
        : [],
    };
  return { type: p.ProjectionType === 'KEYS_ONLY' ? 'KEYS_ONLY' : 'ALL' };
}
