import { keyAttributes, keySchemaElements } from './key-model';
import {
  projectionOf,
  toCreateTableRequest,
  toTimeToLiveRequest,
  type CreateTableRequest,
  type GlobalIndexDefinition,
  type TableDefinition,
} from './table-definition';

/**
 * The exact requests DynoTable sends, as text a user can copy: SDK v3 code, AWS CLI commands,
 * and (for a new table) a CloudFormation resource. Built from the same request objects main
 * sends, so what is shown is what is sent.
 */
export type ControlOperation =
  | 'CreateTable'
  | 'UpdateTable'
  | 'UpdateTimeToLive'
  | 'TagResource'
  | 'UntagResource'
  | 'UpdateContinuousBackups'
  | 'DeleteTable';

export interface ControlCall {
  operation: ControlOperation;
  input: Record<string, unknown>;
}

export function createTableCalls(definition: TableDefinition): ControlCall[] {
  const ttl = toTimeToLiveRequest(definition);
  return [
    {
      operation: 'CreateTable',
      input: toCreateTableRequest(definition) as unknown as Record<string, unknown>,
    },
    ...(ttl
      ? [{ operation: 'UpdateTimeToLive' as const, input: ttl as unknown as Record<string, unknown> }]
      : []),
  ];
}

export function sdkText(calls: ControlCall[]): string {
  const commands = [...new Set(calls.map((c) => `${c.operation}Command`))];
  const creates = calls.find((c) => c.operation === 'CreateTable');
  const imports = [...commands, ...(creates ? ['waitUntilTableExists'] : [])];
  const lines = [
    `import { DynamoDBClient, ${imports.join(', ')} } from '@aws-sdk/client-dynamodb';`,
    '',
    'const client = new DynamoDBClient({});',
  ];
  for (const call of calls) {
    lines.push(`await client.send(new ${call.operation}Command(${JSON.stringify(call.input, null, 2)}));`);
    if (call.operation === 'CreateTable')
      // UpdateTimeToLive is refused while the table is still CREATING.
      lines.push(
        `await waitUntilTableExists({ client, maxWaitTime: 600 }, { TableName: ${JSON.stringify(call.input.TableName)} });`,
      );
  }
  return lines.join('\n');
}

function kebab(operation: ControlOperation): string {
  return operation.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

/** Single-quoted for POSIX shells: a ' inside becomes '\'' . */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function cliText(calls: ControlCall[]): string {
  const lines: string[] = [];
  for (const call of calls) {
    lines.push(
      `aws dynamodb ${kebab(call.operation)} --cli-input-json ${shellQuote(JSON.stringify(call.input))}`,
    );
    if (call.operation === 'CreateTable')
      lines.push(`aws dynamodb wait table-exists --table-name ${shellQuote(String(call.input.TableName))}`);
  }
  return lines.join('\n');
}

/** A logical id CloudFormation accepts: alphanumeric only. */
function logicalId(name: string): string {
  const id = name.replace(/[^A-Za-z0-9]/g, '');
  return id.length > 0 ? `${id.charAt(0).toUpperCase()}${id.slice(1)}` : 'Table';
}

export function cloudFormationText(definition: TableDefinition): string {
  const request: CreateTableRequest = toCreateTableRequest(definition);
  const { StreamSpecification, ...rest } = request;
  const properties: Record<string, unknown> = { ...rest };
  // CloudFormation's StreamSpecification has no StreamEnabled: its presence turns the stream on.
  if (StreamSpecification)
    properties.StreamSpecification = { StreamViewType: StreamSpecification.StreamViewType };
  const ttl = definition.ttlAttribute?.trim();
  if (ttl) properties.TimeToLiveSpecification = { AttributeName: ttl, Enabled: true };
  const template = {
    Resources: { [logicalId(definition.name)]: { Type: 'AWS::DynamoDB::Table', Properties: properties } },
  };
  return JSON.stringify(template, null, 2);
}

/**
 * One global index as CloudFormation: what to add to an AWS::DynamoDB::Table's Properties (its
 * key attributes' definitions and the index, every HASH then every RANGE element in order).
 */
export function globalIndexCloudFormationText(index: GlobalIndexDefinition, isProvisioned = false): string {
  const snippet = {
    AttributeDefinitions: keyAttributes(index).map((a) => ({ AttributeName: a.name, AttributeType: a.type })),
    GlobalSecondaryIndexes: [
      {
        IndexName: index.name,
        KeySchema: keySchemaElements(index),
        Projection: projectionOf(index.projection),
        ...(isProvisioned
          ? {
              ProvisionedThroughput: {
                ReadCapacityUnits: index.readCapacity ?? 1,
                WriteCapacityUnits: index.writeCapacity ?? 1,
              },
            }
          : {}),
      },
    ],
  };
  return `# Add to the table's Properties (keep its other AttributeDefinitions and indexes):\n${JSON.stringify(snippet, null, 2)}`;
}
