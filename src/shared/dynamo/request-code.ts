import type { Connection } from '../ipc/connection';
import type { AttributeValue, Item } from './attribute-value';
import type { ReadRequest } from './read-request';
import type { WriteRequest } from './write-requests';

/**
 * "Copy as AWS SDK v3 code / AWS CLI" for the exact request DynoTable sends. Values stay in
 * DynamoDB's typed form, numbers as strings: the copied code loses no digit either. The code
 * must run as pasted, so it names where DynoTable sends the request: a real region, the custom
 * endpoint, the profile.
 */
export type CodeRequest = WriteRequest | ReadRequest;

/** Where the request goes, as the copied code has to say it. */
export interface CodeTarget {
  region: string;
  endpoint?: string;
  profile?: string;
  /** DynamoDB Local accepts any keys, but the SDK and the CLI refuse to sign without some. */
  hasLocalKeys?: boolean;
}

/** How DynoTable pages a Query or Scan; the copied code pages the same way. */
export interface ReadPaging {
  pageSize: number;
  maxItems: number;
  untilMatches: boolean;
}

const REAL_REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;
/** DynamoDB Local ignores the region, but the SDK and the CLI insist on one they can sign for. */
const LOCAL_REGION = 'us-east-1';

export function codeTargetOf(connection: Connection, playgroundEndpoint?: string): CodeTarget {
  const region = REAL_REGION.test(connection.region) ? connection.region : LOCAL_REGION;
  if (connection.kind === 'playground') {
    return {
      region: LOCAL_REGION,
      endpoint: playgroundEndpoint ?? 'http://127.0.0.1:8000',
      hasLocalKeys: true,
    };
  }
  return {
    region,
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
    ...(connection.kind === 'profile' && connection.profile ? { profile: connection.profile } : {}),
  };
}

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
    const lines = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(
        ([k, v]) =>
          `${indent(level + 1)}${/^\w+$/.test(k) ? k : JSON.stringify(k)}: ${jsObject(v, level + 1, ITEM_FIELDS.has(k))}`,
      );
    return `{\n${lines.join(',\n')},\n${indent(level)}}`;
  }
  return JSON.stringify(value);
}

function sdkClient(target: CodeTarget): string {
  const options = [
    `  region: ${JSON.stringify(target.region)},`,
    ...(target.endpoint ? [`  endpoint: ${JSON.stringify(target.endpoint)},`] : []),
    ...(target.profile ? [`  profile: ${JSON.stringify(target.profile)},`] : []),
    ...(target.hasLocalKeys
      ? [
          '  // DynamoDB Local accepts any keys, but requests must be signed with some.',
          '  credentials: { accessKeyId: "local", secretAccessKey: "local" },',
        ]
      : []),
  ];
  return `const client = new DynamoDBClient({\n${options.join('\n')}\n});`;
}

function sdkReadLoop(request: ReadRequest, paging: ReadPaging): string[] {
  const command = `${request.operation}Command`;
  const { pageSize, maxItems, untilMatches } = paging;
  // The same bounds as DynoTable's read loop: each request asks for at most what is still wanted.
  return untilMatches
    ? [
        `// Pages of at most ${pageSize} until ${maxItems} items match (at most 500 requests).`,
        'const items = [];',
        'let ExclusiveStartKey;',
        'let pages = 0;',
        'do {',
        `  const Limit = Math.min(${pageSize}, ${maxItems} - items.length);`,
        `  const page = await client.send(new ${command}({ ...input, Limit, ExclusiveStartKey }));`,
        '  items.push(...(page.Items ?? []));',
        '  ExclusiveStartKey = page.LastEvaluatedKey;',
        `} while (ExclusiveStartKey && items.length < ${maxItems} && ++pages < 500);`,
      ]
    : [
        `// Pages of at most ${pageSize}, stopping once ${maxItems} items were evaluated (before the filter).`,
        'const items = [];',
        'let ExclusiveStartKey;',
        'let evaluated = 0;',
        'do {',
        `  const Limit = Math.min(${pageSize}, ${maxItems} - evaluated);`,
        `  const page = await client.send(new ${command}({ ...input, Limit, ExclusiveStartKey }));`,
        '  items.push(...(page.Items ?? []));',
        '  evaluated += page.ScannedCount ?? 0;',
        '  ExclusiveStartKey = page.LastEvaluatedKey;',
        `} while (ExclusiveStartKey && evaluated < ${maxItems});`,
      ];
}

function isRead(request: CodeRequest): request is ReadRequest {
  return request.operation === 'Query' || request.operation === 'Scan';
}

export function toSdkV3Code(request: CodeRequest, target: CodeTarget, paging?: ReadPaging): string {
  const command = `${request.operation}Command`;
  const head = [
    `import { DynamoDBClient, ${command} } from "@aws-sdk/client-dynamodb";`,
    '',
    sdkClient(target),
  ];
  if (isRead(request) && paging) {
    return [
      ...head,
      `const input = ${jsObject(request.input, 0)};`,
      '',
      ...sdkReadLoop(request, paging),
      'console.log(JSON.stringify(items, null, 2));',
      '',
    ].join('\n');
  }
  return [
    ...head,
    `const response = await client.send(new ${command}(${jsObject(request.input, 0)}));`,
    'console.log(JSON.stringify(response, null, 2));',
    '',
  ].join('\n');
}

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function kebab(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

function cliPaging(request: ReadRequest, paging: ReadPaging): string[] {
  const { pageSize, maxItems, untilMatches } = paging;
  // The CLI follows pages itself and --max-items counts returned items. Without "until matches"
  // DynoTable stops after maxItems evaluated, which differs only when a filter drops some: one
  // request says that exactly when it fits in a page.
  if (!untilMatches && request.input.FilterExpression && maxItems <= pageSize)
    return [`--limit ${maxItems}`, '--no-paginate'];
  return [`--page-size ${Math.min(pageSize, maxItems)}`, `--max-items ${maxItems}`];
}

/** AWS CLI v2 (whose default binary format is base64, matching the tagged form). */
export function toAwsCli(request: CodeRequest, target: CodeTarget, paging?: ReadPaging): string {
  const verb = kebab(request.operation.replace(/Item$/, '-item').replace(/Items$/, '-items'));
  const prefix = target.hasLocalKeys ? 'AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local ' : '';
  const args: string[] = [`${prefix}aws dynamodb ${verb.replace(/--/g, '-')}`];
  for (const [field, value] of Object.entries(request.input)) {
    if (value === undefined) continue;
    const flag = kebab(field);
    // Boolean parameters are switches in the CLI: --consistent-read, --no-scan-index-forward.
    if (typeof value === 'boolean') args.push(value ? `--${flag}` : `--no-${flag}`);
    else if (typeof value === 'string') args.push(`--${flag} ${shellQuote(value)}`);
    else args.push(`--${flag} ${shellQuote(JSON.stringify(value))}`);
  }
  if (isRead(request) && paging) args.push(...cliPaging(request, paging));
  if (target.endpoint) args.push(`--endpoint-url ${shellQuote(target.endpoint)}`);
  args.push(`--region ${shellQuote(target.region)}`);
  if (target.profile) args.push(`--profile ${shellQuote(target.profile)}`);
  return args.join(' \\\n  ');
}
