import { describe, expect, it } from 'vitest';
import {
  keyAttributeNames,
  keyText,
  partitionAttributes,
  sortAttributes,
} from '../../../src/shared/dynamo/key-model';
import { blankDefinition, toCreateTableRequest } from '../../../src/shared/dynamo/table-definition';
import { parseTableText } from '../../../src/shared/dynamo/table-definition-import';
import { cloudFormationText } from '../../../src/shared/dynamo/table-request-text';
import { changeCalls, changeProblems, type TableChange } from '../../../src/shared/dynamo/table-change';
import { validateDefinition } from '../../../src/shared/dynamo/table-validation';
import { tableSummary } from '../../support/table-summary';

/** What `cdk synth --json` writes for a TableV2 GSI with partitionKeys/sortKeys (2 + 2). */
const cdkTemplate = {
  Resources: {
    Events1A2B: {
      Type: 'AWS::DynamoDB::Table',
      Properties: {
        TableName: 'events',
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        AttributeDefinitions: [
          { AttributeName: 'id', AttributeType: 'S' },
          { AttributeName: 'tenant', AttributeType: 'S' },
          { AttributeName: 'reg.ion', AttributeType: 'S' },
          { AttributeName: '#day', AttributeType: 'S' },
          { AttributeName: 'seq', AttributeType: 'N' },
        ],
        BillingMode: 'PAY_PER_REQUEST',
        GlobalSecondaryIndexes: [
          {
            IndexName: 'byTenantRegion',
            KeySchema: [
              { AttributeName: 'tenant', KeyType: 'HASH' },
              { AttributeName: 'reg.ion', KeyType: 'HASH' },
              { AttributeName: '#day', KeyType: 'RANGE' },
              { AttributeName: 'seq', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      },
    },
  },
};

describe('multi-attribute index keys in the table definition', () => {
  it('reads every HASH and RANGE attribute of a pasted CDK index, in order, and writes them back', () => {
    const { definition, notes } = parseTableText(JSON.stringify(cdkTemplate));
    const gsi = definition.globalIndexes[0];
    if (!gsi) throw new Error('no index read');
    expect(partitionAttributes(gsi)).toEqual([
      { name: 'tenant', type: 'S' },
      { name: 'reg.ion', type: 'S' },
    ]);
    expect(sortAttributes(gsi)).toEqual([
      { name: '#day', type: 'S' },
      { name: 'seq', type: 'N' },
    ]);
    expect(keyText(gsi)).toBe('tenant + reg.ion / #day + seq');
    expect(notes).toEqual([]);
    expect(validateDefinition(definition)).toEqual([]);
    const request = toCreateTableRequest(definition);
    expect(request.GlobalSecondaryIndexes?.[0]?.KeySchema).toEqual(
      cdkTemplate.Resources.Events1A2B.Properties.GlobalSecondaryIndexes[0]?.KeySchema,
    );
    expect(request.AttributeDefinitions.map((a) => `${a.AttributeName}:${a.AttributeType}`)).toEqual([
      'id:S',
      'tenant:S',
      'reg.ion:S',
      '#day:S',
      'seq:N',
    ]);
    // The round trip: the CloudFormation DynoTable writes reads back to the same model.
    expect(parseTableText(cloudFormationText(definition)).definition.globalIndexes).toEqual(
      definition.globalIndexes,
    );
  });

  it('refuses a fifth attribute, a repeated one, and further sort attributes without a first', () => {
    const definition = {
      ...blankDefinition(),
      name: 'events',
      partitionKey: { name: 'id', type: 'S' as const },
      globalIndexes: [
        {
          name: 'byAll',
          partitionKey: { name: 'a', type: 'S' as const },
          morePartitionKeys: ['b', 'c', 'a'].map((name) => ({ name, type: 'S' as const })),
          moreSortKeys: [{ name: 'd', type: 'S' as const }],
          projection: { type: 'ALL' as const },
        },
      ],
    };
    expect(validateDefinition(definition).map((p) => p.message)).toEqual([
      'Further sort attributes need a first sort attribute.',
      `"a" appears twice in the index's key; each key attribute appears once.`,
    ]);
    const tooMany = {
      ...definition,
      globalIndexes: [
        {
          ...definition.globalIndexes[0]!,
          morePartitionKeys: ['b', 'c', 'd', 'e'].map((name) => ({ name, type: 'S' as const })),
          moreSortKeys: undefined,
        },
      ],
    };
    expect(validateDefinition(tooMany).map((p) => p.message)).toEqual([
      'An index key has at most 4 partition attributes.',
    ]);
    expect(keyAttributeNames(tooMany.globalIndexes[0]!)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('keeps the first of each when a pasted table (not an index) names two HASH attributes, and says so', () => {
    const { definition, notes } = parseTableText(
      JSON.stringify({
        TableName: 'twice',
        KeySchema: [
          { AttributeName: 'a', KeyType: 'HASH' },
          { AttributeName: 'b', KeyType: 'HASH' },
        ],
        AttributeDefinitions: [
          { AttributeName: 'a', AttributeType: 'S' },
          { AttributeName: 'b', AttributeType: 'S' },
        ],
      }),
    );
    expect(definition.partitionKey).toEqual({ name: 'a', type: 'S' });
    expect(notes.join(' ')).toMatch(/a table has one of each/);
  });

  describe('the Add-a-global-index change', () => {
    const summary = tableSummary('events', {
      keys: { partitionKey: { name: 'id', type: 'S' }, sortKey: { name: 'seq', type: 'N' } },
    });
    const attr = (name: string, type: 'S' | 'N' | 'B' = 'S') => ({ name, type });

    it('sends every partition and sort attribute in order, each defined once', () => {
      const change: TableChange = {
        kind: 'addIndex',
        index: {
          name: 'byTenantRegion',
          partitionKey: attr('__proto__'),
          morePartitionKeys: [attr('a.b')],
          sortKey: attr('#x'),
          moreSortKeys: [attr('[0]', 'N')],
          projection: { type: 'ALL' },
        },
      };
      expect(changeProblems(change, summary)).toEqual([]);
      const [call] = changeCalls(change, summary);
      expect(call?.input.AttributeDefinitions).toEqual([
        { AttributeName: '__proto__', AttributeType: 'S' },
        { AttributeName: 'a.b', AttributeType: 'S' },
        { AttributeName: '#x', AttributeType: 'S' },
        { AttributeName: '[0]', AttributeType: 'N' },
      ]);
      expect(call?.input.GlobalSecondaryIndexUpdates).toEqual([
        {
          Create: {
            IndexName: 'byTenantRegion',
            KeySchema: [
              { AttributeName: '__proto__', KeyType: 'HASH' },
              { AttributeName: 'a.b', KeyType: 'HASH' },
              { AttributeName: '#x', KeyType: 'RANGE' },
              { AttributeName: '[0]', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        },
      ]);
    });

    it("refuses a type the table's keys already gave, a repeat, a blank and a fifth attribute, each at its field", () => {
      const problems = changeProblems(
        {
          kind: 'addIndex',
          index: {
            name: 'byMany',
            partitionKey: attr('a'),
            morePartitionKeys: [attr('b'), attr(''), attr('a')],
            sortKey: attr('seq', 'S'),
            moreSortKeys: ['c', 'd', 'e', 'f'].map((n) => attr(n)),
            projection: { type: 'ALL' },
          },
        },
        summary,
      );
      expect(problems).toEqual([
        {
          field: 'index.morePartitionKeys.1.name',
          message: "The index's partition attribute 3 needs a name.",
        },
        {
          field: 'index.morePartitionKeys.2.name',
          message: `"a" appears twice in the index's key; each key attribute appears once.`,
        },
        { field: 'index.moreSortKeys.3', message: 'An index key has at most 4 sort attributes.' },
        {
          field: 'index.sortKey.type',
          message: '"seq" is already a key of type N; one attribute has one type in every key.',
        },
      ]);
    });
  });
});
