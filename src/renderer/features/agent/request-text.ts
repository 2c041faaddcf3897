/**
 * An approval card's requests in words: "Update USER#u1 · PROFILE in Orders: SET vip = true".
 * Derived mechanically from the exact request main will send (placeholders substituted), never
 * from what the model said it would do, so the words cannot disagree with the write.
 */
export interface RequestText {
  /** "Update", "Put", "Delete", or the operation name for anything else. */
  action: string;
  table: string;
  /** The key values, joined with " · ". */
  key: string;
  /** What changes: the update expression, or the attributes a put writes. */
  change?: string;
  /** When the write applies. */
  condition?: string;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One attribute value in the AWS API's JSON form, written the way a person reads it. */
export function valueText(value: unknown): string {
  if (!isObject(value)) return String(value);
  const [type, inner] = Object.entries(value)[0] ?? [];
  if (type === 'S') return JSON.stringify(inner);
  if (type === 'N') return String(inner);
  if (type === 'BOOL') return String(inner);
  if (type === 'NULL') return 'null';
  if (type === 'B') return '<binary>';
  if (type === 'L' && Array.isArray(inner)) return `[${inner.map(valueText).join(', ')}]`;
  if (type === 'M' && isObject(inner)) {
    return `{${Object.entries(inner)
      .map(([k, v]) => `${k}: ${valueText(v)}`)
      .join(', ')}}`;
  }
  if ((type === 'SS' || type === 'NS') && Array.isArray(inner)) return `<<${inner.map(String).join(', ')}>>`;
  return JSON.stringify(value);
}

/** Replaces #name and :value placeholders with the names and values they stand for. */
export function substitute(expression: string, request: Json): string {
  const names = isObject(request.ExpressionAttributeNames) ? request.ExpressionAttributeNames : {};
  const values = isObject(request.ExpressionAttributeValues) ? request.ExpressionAttributeValues : {};
  return expression.replace(/([#:])[A-Za-z0-9_]+/g, (token, sigil: string) => {
    if (sigil === '#') return typeof names[token] === 'string' ? names[token] : token;
    return token in values ? valueText(values[token]) : token;
  });
}

const MAX_CONDITION = 140;

function conditionText(request: Json): string | undefined {
  if (typeof request.ConditionExpression !== 'string') return undefined;
  // Only the shapes main writes are put in words; anything else is shown as DynamoDB has it.
  const words = request.ConditionExpression.replace(/attribute_not_exists\((#\w+)\)/g, '$1 is not set')
    .replace(/attribute_exists\((#\w+)\)/g, '$1 exists')
    .replace(/ AND /g, ' and ');
  const text = substitute(words, request);
  if (text.length <= MAX_CONDITION) return `only if ${text}`;
  // A whole-item "unchanged" check on a wide item: the count says enough, the JSON has the rest.
  const checks = request.ConditionExpression.split(' AND ').length;
  return `only if the item is unchanged since it was read (${checks} attributes compared)`;
}

export function requestText(request: Json): RequestText {
  const operation = typeof request.operation === 'string' ? request.operation : 'Request';
  const action = { UpdateItem: 'Update', PutItem: 'Put', DeleteItem: 'Delete' }[operation] ?? operation;
  // Main builds Key from the key schema in order: partition key, then sort key.
  const key = (isObject(request.Key) ? Object.values(request.Key) : [])
    .map((v) => {
      const text = valueText(v);
      return text.startsWith('"') ? text.slice(1, -1) : text;
    })
    .join(' · ');
  let change: string | undefined;
  if (typeof request.UpdateExpression === 'string') change = substitute(request.UpdateExpression, request);
  else if (typeof request.KeyConditionExpression === 'string' || typeof request.Limit === 'number') {
    // A read: which items, and at most how many.
    const parts = [
      typeof request.KeyConditionExpression === 'string'
        ? `where ${substitute(request.KeyConditionExpression, request)}`
        : 'every item',
      typeof request.FilterExpression === 'string'
        ? `filtered by ${substitute(request.FilterExpression, request)}`
        : '',
      typeof request.Limit === 'number' ? `up to ${request.Limit.toLocaleString('en-US')} items` : '',
    ];
    change = parts.filter(Boolean).join(', ');
  } else if (isObject(request.Item))
    change = `write ${Object.keys(request.Item).length} attributes: ${valueText({ M: request.Item })}`;
  return {
    action,
    table:
      (typeof request.TableName === 'string' ? request.TableName : '') +
      (typeof request.IndexName === 'string' ? ` (${request.IndexName})` : ''),
    key,
    change,
    condition: conditionText(request),
  };
}
