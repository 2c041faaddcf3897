/**
 * DynamoDB Local spoken to with plain HTTP, past the AWS SDK and past DynoTable: the independent
 * oracle for what is stored. JSON.parse keeps a `__proto__` key as an own property, so the
 * parsed answer holds every attribute name as DynamoDB sent it. DynamoDB Local does not check
 * signatures; the access key and region in the credential pick the same database as
 * localClient() (key "local", us-east-1).
 */
export async function rawDynamo<T = Record<string, unknown>>(
  endpoint: string,
  operation: string,
  body: unknown,
  /** Another access key sees another database (DynamoDB Local without -sharedDb). */
  accessKey = 'local',
): Promise<T> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.0',
      'X-Amz-Target': `DynamoDB_20120810.${operation}`,
      Authorization: `AWS4-HMAC-SHA256 Credential=${accessKey}/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${operation} failed (${response.status}): ${text}`);
  return JSON.parse(text) as T;
}

/** The stored item as DynamoDB's wire JSON, or null. */
export async function rawGetItem(
  endpoint: string,
  table: string,
  key: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const answer = await rawDynamo<{ Item?: Record<string, unknown> }>(endpoint, 'GetItem', {
    TableName: table,
    Key: key,
    ConsistentRead: true,
  });
  return answer.Item ?? null;
}

/** Every item a Scan or Query returns, as DynamoDB's wire JSON, every page. */
export async function rawReadAll(
  endpoint: string,
  operation: 'Scan' | 'Query',
  body: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: unknown;
  do {
    const page = await rawDynamo<{ Items: Record<string, unknown>[]; LastEvaluatedKey?: unknown }>(
      endpoint,
      operation,
      { ...body, ...(start ? { ExclusiveStartKey: start } : {}) },
    );
    items.push(...page.Items);
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Every stored item of a table (or an index) as DynamoDB's wire JSON, every page. */
export function rawScanItems(
  endpoint: string,
  table: string,
  index?: string,
): Promise<Record<string, unknown>[]> {
  return rawReadAll(endpoint, 'Scan', { TableName: table, ...(index ? { IndexName: index } : {}) });
}

const SETS = new Set(['SS', 'NS', 'BS']);

/**
 * A canonical text of tagged JSON: keys sorted (own keys only, so `__proto__` is a name like any
 * other) and set members sorted, since DynamoDB keeps no set order. Two texts are equal exactly
 * when the items hold the same names with the same values.
 */
export function canonical(value: unknown, parentKey = ''): string {
  if (Array.isArray(value)) {
    const parts = value.map((v) => canonical(v));
    if (SETS.has(parentKey)) parts.sort();
    return `[${parts.join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k], k)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
