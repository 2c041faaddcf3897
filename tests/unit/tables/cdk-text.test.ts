import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { globalIndexCdkText, tableCdkText } from '../../../src/shared/dynamo/cdk-text';
import { blankDefinition, type TableDefinition } from '../../../src/shared/dynamo/table-definition';
import { globalIndexCloudFormationText } from '../../../src/shared/dynamo/table-request-text';
import { parseTableText } from '../../../src/shared/dynamo/table-definition-import';

const hostile: TableDefinition = {
  ...blankDefinition(),
  name: 'hostile-events',
  partitionKey: { name: 'id', type: 'S' },
  sortKey: { name: 'at', type: 'N' },
  globalIndexes: [
    {
      name: 'byHostile',
      partitionKey: { name: '__proto__', type: 'S' },
      morePartitionKeys: [{ name: 'a.b', type: 'S' }],
      sortKey: { name: '#x', type: 'S' },
      moreSortKeys: [{ name: '[0]', type: 'N' }],
      projection: { type: 'INCLUDE', attributes: ['constructor'] },
    },
    { name: 'byOne', partitionKey: { name: 'one', type: 'B' }, projection: { type: 'KEYS_ONLY' } },
  ],
  localIndexes: [{ name: 'byLocal', sortKey: { name: "it's", type: 'S' }, projection: { type: 'ALL' } }],
  ttlAttribute: 'expiresAt',
  streamViewType: 'NEW_AND_OLD_IMAGES',
  deletionProtection: true,
  tags: [{ key: 'team', value: 'a "b"' }],
};

/** TypeScript's own parser: the text is a program a user can paste into a stack. */
function syntaxErrors(text: string): string[] {
  const out = ts.transpileModule(`export {};\ndeclare const thisStack: unknown;\n${text}`, {
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('CDK text of what table admin creates', () => {
  it("writes a multi-attribute index's key as partitionKeys/sortKeys in KeySchema order, a single one as partitionKey", () => {
    const text = tableCdkText(hostile);
    expect(syntaxErrors(text)).toEqual([]);
    expect(text).toContain(
      [
        '  partitionKeys: [',
        '    { name: "__proto__", type: dynamodb.AttributeType.STRING },',
        '    { name: "a.b", type: dynamodb.AttributeType.STRING },',
        '  ],',
        '  sortKeys: [',
        '    { name: "#x", type: dynamodb.AttributeType.STRING },',
        '    { name: "[0]", type: dynamodb.AttributeType.NUMBER },',
        '  ],',
        '  projectionType: dynamodb.ProjectionType.INCLUDE,',
        '  nonKeyAttributes: ["constructor"],',
      ].join('\n'),
    );
    expect(text).toContain('  partitionKey: { name: "one", type: dynamodb.AttributeType.BINARY },');
    expect(text).toContain('  sortKey: { name: "it\'s", type: dynamodb.AttributeType.STRING },');
    expect(text).toContain('  timeToLiveAttribute: "expiresAt",');
    expect(text).toContain('  stream: dynamodb.StreamViewType.NEW_AND_OLD_IMAGES,');
    expect(text).toContain('cdk.Tags.of(table).add("team", "a \\"b\\"");');
  });

  it('gives an added index with its capacity on a provisioned table, and CloudFormation the pasted-definition reader takes back', () => {
    const index = { ...hostile.globalIndexes[0]!, readCapacity: 7, writeCapacity: 3 };
    const cdk = globalIndexCdkText(index, true);
    expect(syntaxErrors(cdk)).toEqual([]);
    expect(cdk).toMatch(/readCapacity: 7,\n {2}writeCapacity: 3,\n\}\);$/);
    const cfn = globalIndexCloudFormationText(index, true);
    const json = JSON.parse(cfn.slice(cfn.indexOf('\n') + 1)) as {
      AttributeDefinitions: unknown[];
      GlobalSecondaryIndexes: unknown[];
    };
    // Put into a template around the table's own key, the snippet reads back as the same index.
    const template = {
      Resources: {
        T: {
          Type: 'AWS::DynamoDB::Table',
          Properties: {
            TableName: 't',
            BillingMode: 'PROVISIONED',
            ProvisionedThroughput: { ReadCapacityUnits: 1, WriteCapacityUnits: 1 },
            KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
            AttributeDefinitions: [{ AttributeName: 'id', AttributeType: 'S' }, ...json.AttributeDefinitions],
            GlobalSecondaryIndexes: json.GlobalSecondaryIndexes,
          },
        },
      },
    };
    expect(parseTableText(JSON.stringify(template)).definition.globalIndexes).toEqual([index]);
  });
});
