import type { AttributeValue, Item } from './attribute-value';
import type { WriteRequest } from './write-requests';

/**
 * "Copy as AWS SDK v3 code / AWS CLI" for the exact request DynoTable sends. Values stay in
 * DynamoDB's typed form, numbers as strings: the copied code loses no digit either.
 */
const ITEM_FIELDS = new Set(['Item', 'Key', 'ExpressionAttributeValues']);

function indent(level: number): string {
  return '  '.repeat(level);
}

function jsValue(value: AttributeValue, level: number): string {
  if ('B' in value) return `{ B: Buffer.from(${JSON.stringify(value.B)}, "base64") }`;
  if ('BS' in value)
    return `{ BS: [${value.BS.map((b) => `Buffer.from(${JSON.stringify(b)}, "base64")`).join(', ')}] }`;
  if ('L' in value) {
    if (value.L.length === 0) return '{ L: [] }';
    return `{ L: [\n${value.L.map((v) => indent(level + 1) + jsValue(v, level + 1)).join(',\n')},\n${indent(level)}] }`;
  }
  if ('M' in value) return `{ M: ${jsItem(value.M, level)} }`;
  return JSON.stringify(value)
    .replace(/^\{"(\w+)":/, '{ $1: ')
    .replace(/\}$/, ' }');
}

function jsItem(item: Item, level: number): string {
  const entries = Object.entries(item);
  if (entries.length === 0) return '{}';
  const lines = entries.map(
    ([name, v]) => `${indent(level + 1)}${JSON.stringify(name)}: ${jsValue(v, level + 1)}`,
  );
  return `{\n${lines.join(',\n')},\n${indent(level)}}`;
}

function jsObject(value: unknown, level: number, itemField = false): string {
  if (itemField) return jsItem(value as Item, level);
  if (Array.isArray(value)) {
    return `[\n${value.map((v) => indent(level + 1) + jsObject(v, level + 1)).join(',\n')},\n${indent(level)}]`;
  }
  if (value && typeof value === 'object') {
    const lines = Object.entries(value).map(
      ([k, v]) =>
        `${indent(level + 1)}${/^\w+$/.test(k) ? k : JSON.stringify(k)}: ${jsObject(v, level + 1, ITEM_FIELDS.has(k))}`,
    );
    return `{\n${lines.join(',\n')},\n${indent(level)}}`;
  }
  return JSON.stringify(value);
}

export function toSdkV3Code(request: WriteRequest, region = 'us-east-1'): string {
  const command = `${request.operation}Command`;
  return [
    `import { DynamoDBClient, ${command} } from "@aws-sdk/client-dynamodb";`,
    '',
    `const client = new DynamoDBClient({ region: ${JSON.stringify(region)} });`,
    `const response = await client.send(new ${command}(${jsObject(request.input, 0)}));`,
    '',
  ].join('\n');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function kebab(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

/** AWS CLI v2 (whose default binary format is base64, matching the tagged form). */
export function toAwsCli(request: WriteRequest, region?: string): string {
  const verb = kebab(request.operation.replace(/Item$/, '-item').replace(/Items$/, '-items'));
  const args: string[] = [`aws dynamodb ${verb.replace(/--/g, '-')}`];
  for (const [field, value] of Object.entries(request.input)) {
    if (value === undefined) continue;
    const flag = `--${kebab(field)}`;
    args.push(
      typeof value === 'string'
        ? `${flag} ${shellQuote(value)}`
        : `${flag} ${shellQuote(JSON.stringify(value))}`,
    );
  }
  if (region) args.push(`--region ${shellQuote(region)}`);
  return args.join(' \\\n  ');
}
