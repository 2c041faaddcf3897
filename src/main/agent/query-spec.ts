import type { QueryCommandInput } from '@aws-sdk/client-dynamodb';
import type { AttributeValue } from '../../shared/dynamo/attribute-value';
import { partitionAttributes, sortAttributes } from '../../shared/dynamo/key-model';
import { buildReadRequest, ReadSpecError } from '../../shared/dynamo/read-request';
import type { ReadSpec, SortKeyCondition } from '../../shared/ipc/query';
import type { KeyAttributeInfo, TableSummary } from '../../shared/ipc/tables';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import { readTargetOf } from '../dynamo/table-metadata';
import { toSdkItem } from '../dynamo/marshal';
import { keyValue } from './plain-values';

type ConditionInput = { op?: SortKeyCondition['op']; value?: unknown; value2?: unknown } | null | undefined;

/** A value for an attribute the key does not have: kept as given, so the builder's rule names the mistake. */
function valueFor(value: unknown, attribute: KeyAttributeInfo | undefined): AttributeValue {
  if (attribute) return keyValue(value, attribute.type, attribute.name);
  return typeof value === 'number' ? { N: String(value) } : { S: String(value) };
}

function conditionFor(
  input: ConditionInput,
  attribute: KeyAttributeInfo | undefined,
): SortKeyCondition | null {
  if (!input) return null;
  return {
    op: input.op ?? '=',
    value: valueFor(input.value, attribute),
    ...(input.value2 === undefined ? {} : { value2: valueFor(input.value2, attribute) }),
  };
}

/**
 * The query tool's request (agent and MCP), built and checked by the query builder's own
 * buildReadRequest: every partition attribute of a multi-attribute key with `=`, sort
 * attributes left to right, none skipped, only the last one named with a range. A refusal is
 * the builder's sentence, before anything is read.
 */
export function toolQueryRequest(summary: TableSummary, input: Record<string, unknown>): QueryCommandInput {
  const index = typeof input.index === 'string' ? input.index : undefined;
  // An unknown index is refused by buildReadRequest, naming it.
  const keys = (index ? summary.indexes.find((i) => i.name === index)?.keys : undefined) ?? summary.keys;
  const partition = partitionAttributes(keys);
  const sort = sortAttributes(keys);
  const moreValues = Array.isArray(input.morePartitionKeys) ? (input.morePartitionKeys as unknown[]) : [];
  const moreConditions = Array.isArray(input.moreSortKeys) ? (input.moreSortKeys as ConditionInput[]) : [];
  const sortKey = conditionFor(input.sortKey as ConditionInput, sort[0]);
  const spec: ReadSpec = {
    mode: 'query',
    ...(index ? { index } : {}),
    partitionKey: valueFor(input.partitionKey, partition[0]),
    ...(moreValues.length > 0
      ? { morePartitionKeys: moreValues.map((v, i) => valueFor(v, partition[i + 1])) }
      : {}),
    ...(sortKey ? { sortKey } : {}),
    ...(moreConditions.length > 0
      ? { moreSortKeys: moreConditions.map((c, i) => conditionFor(c, sort[i + 1])) }
      : {}),
  };
  try {
    const { input: built } = buildReadRequest(readTargetOf(summary), spec);
    return {
      ...built,
      ExpressionAttributeValues: toSdkItem(built.ExpressionAttributeValues ?? {}),
      ScanIndexForward: input.newestFirst !== true,
    };
  } catch (error) {
    if (error instanceof ReadSpecError) throw new AppFailure(ErrorCodes.invalidInput, error.message);
    throw error;
  }
}
