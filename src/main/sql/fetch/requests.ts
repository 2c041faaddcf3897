import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import { toSdkItem, toSdkValue } from '../../dynamo/marshal';
import type { Access, SortCondition } from '../planner/access-path';
import { ExpressionBuilder } from '../planner/expression-builder';
import type { FetchSpec } from '../planner/plan';

export interface ExpressionParts {
  FilterExpression?: string;
  ProjectionExpression?: string;
  KeyConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, SdkValue>;
}

function sortExpression(builder: ExpressionBuilder, sort: SortCondition): string {
  const name = builder.name(sort.name);
  const [a, b] = sort.values;
  if (sort.op === 'between') return `${name} BETWEEN ${builder.value(a!)} AND ${builder.value(b!)}`;
  if (sort.op === 'begins_with') return `begins_with(${name}, ${builder.value(a!)})`;
  return `${name} ${sort.op} ${builder.value(a!)}`;
}

/**
 * Request parameters for one spec (and, for a Query, one partition value). DynamoDB rejects
 * empty ExpressionAttributeNames/Values maps, so they are only sent when used.
 */
export function expressionParts(spec: FetchSpec, partitionIndex = 0): ExpressionParts {
  const builder = new ExpressionBuilder();
  const parts: ExpressionParts = {};
  const access: Access = spec.access;
  if (access.operation === 'Query') {
    const value = access.partition.values[partitionIndex]!;
    let key = `${builder.name(access.partition.name)} = ${builder.value(value)}`;
    for (const e of access.equalities ?? [])
      key += ` AND ${builder.name(e.name)} = ${builder.value(e.value)}`;
    if (access.sort) key += ` AND ${sortExpression(builder, access.sort)}`;
    parts.KeyConditionExpression = key;
  }
  if (spec.filter && access.operation !== 'GetItem' && access.operation !== 'BatchGetItem')
    parts.FilterExpression = builder.condition(spec.filter);
  if (spec.projection) parts.ProjectionExpression = builder.projection(spec.projection);
  if (Object.keys(builder.names).length > 0) parts.ExpressionAttributeNames = builder.names;
  if (Object.keys(builder.values).length > 0) {
    parts.ExpressionAttributeValues = Object.fromEntries(
      Object.entries(builder.values).map(([k, v]) => [k, toSdkValue(v)]),
    );
  }
  return parts;
}

export { toSdkItem };
