import { describe, expect, it } from 'vitest';
import { singleTableDefinition, type TableDefinition } from '../../../src/shared/dynamo/table-definition';
import { parseTableText } from '../../../src/shared/dynamo/table-definition-import';
import {
  cloudFormationText,
  cliText,
  createTableCalls,
  sdkText,
} from '../../../src/shared/dynamo/table-request-text';

/** A CDK-synthesized template, trimmed: Metadata, a second resource, and a Ref in the name. */
const cdkTemplate = {
  Resources: {
    OrdersQueue1234: { Type: 'AWS::SQS::Queue', Properties: {} },
    OrdersTableF3A2B1C4: {
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        KeySchema: [
          { AttributeName: 'PK', KeyType: 'HASH' },
          { AttributeName: 'SK', KeyType: 'RANGE' },
        ],
        AttributeDefinitions: [
          { AttributeName: 'PK', AttributeType: 'S' },
          { AttributeName: 'SK', AttributeType: 'S' },
          { AttributeName: 'GSI1PK', AttributeType: 'S' },
          { AttributeName: 'amount', AttributeType: 'N' },
        ],
        BillingMode: 'PROVISIONED',
        ProvisionedThroughput: { ReadCapacityUnits: '5', WriteCapacityUnits: 5 },
        GlobalSecondaryIndexes: [
          {
            IndexName: 'GSI1',
            KeySchema: [{ AttributeName: 'GSI1PK', KeyType: 'HASH' }],
            Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['status'] },
            ProvisionedThroughput: { ReadCapacityUnits: 2, WriteCapacityUnits: 1 },
          },
        ],
        LocalSecondaryIndexes: [
          {
            IndexName: 'ByAmount',
            KeySchema: [
              { AttributeName: 'PK', KeyType: 'HASH' },
              { AttributeName: 'amount', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
        ],
        StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
        TimeToLiveSpecification: { AttributeName: 'expiresAt', Enabled: 'true' },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
        TableClass: 'STANDARD_INFREQUENT_ACCESS',
        Tags: [{ Key: 'team', Value: 'payments' }],
        TableName: { 'Fn::Sub': '${AWS::StackName}-orders' },
      },
      UpdateReplacePolicy: 'Retain',
      DeletionPolicy: 'Retain',
      Metadata: { 'aws:cdk:path': 'Stack/OrdersTable/Resource' },
    },
  },
};

describe('parseTableText', () => {
  it('reads a CDK-synthesized template: every field the form has, and sentences for what it cannot take', () => {
    const { definition, source, notes } = parseTableText(JSON.stringify(cdkTemplate));
    expect(source).toBe('CloudFormation');
    expect(definition).toEqual<TableDefinition>({
      name: '',
      partitionKey: { name: 'PK', type: 'S' },
      sortKey: { name: 'SK', type: 'S' },
      billingMode: 'PROVISIONED',
      readCapacity: 5,
      writeCapacity: 5,
      globalIndexes: [
        {
          name: 'GSI1',
          partitionKey: { name: 'GSI1PK', type: 'S' },
          sortKey: undefined,
          projection: { type: 'INCLUDE', attributes: ['status'] },
          readCapacity: 2,
          writeCapacity: 1,
        },
      ],
      localIndexes: [
        { name: 'ByAmount', sortKey: { name: 'amount', type: 'N' }, projection: { type: 'KEYS_ONLY' } },
      ],
      ttlAttribute: 'expiresAt',
      streamViewType: 'NEW_AND_OLD_IMAGES',
      deletionProtection: true,
      tableClass: 'STANDARD_INFREQUENT_ACCESS',
      tags: [{ key: 'team', value: 'payments' }],
    });
    expect(notes).toEqual([
      expect.stringMatching(/TableName is a CloudFormation expression/),
      expect.stringMatching(/Point-in-time recovery is switched on after creation/),
    ]);
  });

  it('reads one resource, or its bare Properties', () => {
    const resource = cdkTemplate.Resources.OrdersTableF3A2B1C4;
    expect(parseTableText(JSON.stringify(resource)).definition.streamViewType).toBe('NEW_AND_OLD_IMAGES');
    const bare = parseTableText(JSON.stringify(resource.Properties));
    expect(bare.source).toBe('CloudFormation');
    expect(bare.definition.ttlAttribute).toBe('expiresAt');
  });

  it('reads a CreateTable request and a DescribeTable answer (on-demand, whose 0/0 throughput is not capacity)', () => {
    const request = {
      TableName: 'Events',
      AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'B' }],
      KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
      StreamSpecification: { StreamEnabled: false },
    };
    const created = parseTableText(JSON.stringify(request));
    expect(created.source).toBe('CreateTable');
    expect(created.definition).toMatchObject({
      name: 'Events',
      partitionKey: { name: 'id', type: 'B' },
      billingMode: 'PAY_PER_REQUEST',
    });
    expect(created.definition.streamViewType).toBeUndefined();
    const described = parseTableText(
      JSON.stringify({
        Table: {
          ...request,
          TableStatus: 'ACTIVE',
          BillingMode: undefined,
          BillingModeSummary: { BillingMode: 'PAY_PER_REQUEST' },
          ProvisionedThroughput: { ReadCapacityUnits: 0, WriteCapacityUnits: 0 },
        },
      }),
    );
    expect(described.source).toBe('DescribeTable');
    expect(described.definition.billingMode).toBe('PAY_PER_REQUEST');
    expect(described.definition.readCapacity).toBeUndefined();
  });

  it('says what is wrong with text it cannot read', () => {
    expect(() => parseTableText('')).toThrow(/Paste a CreateTable JSON/);
    expect(() => parseTableText('Resources:\n  T:\n    Type: AWS::DynamoDB::Table')).toThrow(
      /looks like YAML/,
    );
    expect(() => parseTableText('{"Resources":{"Q":{"Type":"AWS::SQS::Queue"}}}')).toThrow(
      /no AWS::DynamoDB::Table/,
    );
    expect(() => parseTableText('{"Resources":{"G":{"Type":"AWS::DynamoDB::GlobalTable"}}}')).toThrow(
      /single-region tables/,
    );
    expect(() => parseTableText('{"KeySchema":[{"AttributeName":"a","KeyType":"RANGE"}]}')).toThrow(
      /no HASH/,
    );
    expect(() => parseTableText('[1]')).toThrow(/JSON object/);
  });

  it('round-trips the definition through the CloudFormation text DynoTable shows', () => {
    const definition: TableDefinition = {
      ...singleTableDefinition('Orders.v2-prod'),
      billingMode: 'PROVISIONED',
      readCapacity: 3,
      writeCapacity: 4,
      globalIndexes: [{ ...singleTableDefinition().globalIndexes[0]!, readCapacity: 1, writeCapacity: 2 }],
      localIndexes: [{ name: 'byDate', sortKey: { name: 'date', type: 'S' }, projection: { type: 'ALL' } }],
      streamViewType: 'KEYS_ONLY',
      deletionProtection: true,
      tags: [{ key: 'env', value: 'prod' }],
    };
    const text = cloudFormationText(definition);
    expect(Object.keys((JSON.parse(text) as { Resources: object }).Resources)).toEqual(['Ordersv2prod']);
    expect(parseTableText(text).definition).toEqual(definition);
  });
});

describe('request text', () => {
  it('quotes the CLI input for a POSIX shell, and waits for the table before setting TTL', () => {
    const definition = { ...singleTableDefinition('it.s'), tags: [{ key: 'owner', value: "O'Brien" }] };
    const lines = cliText(createTableCalls(definition)).split('\n');
    expect(lines[0]).toMatch(/^aws dynamodb create-table --cli-input-json '\{.*\}'$/);
    expect(lines[0]).toContain(`"O'\\''Brien"`);
    expect(lines[1]).toBe("aws dynamodb wait table-exists --table-name 'it.s'");
    expect(lines[2]).toMatch(
      /^aws dynamodb update-time-to-live --cli-input-json '.*"AttributeName":"expiresAt".*'$/,
    );
  });

  it('writes SDK v3 code that sends the same request objects', () => {
    const calls = createTableCalls(singleTableDefinition('Orders'));
    const text = sdkText(calls);
    expect(text).toContain(
      'import { DynamoDBClient, CreateTableCommand, UpdateTimeToLiveCommand, waitUntilTableExists }',
    );
    expect(text).toContain(`new CreateTableCommand(${JSON.stringify(calls[0]?.input, null, 2)})`);
    expect(text.indexOf('waitUntilTableExists({')).toBeLessThan(text.indexOf('UpdateTimeToLiveCommand({'));
  });
});
