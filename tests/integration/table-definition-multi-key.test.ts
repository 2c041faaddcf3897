import { describe, expect, inject, it } from 'vitest';
import { definitionFromDescription, parseTableText } from '../../src/shared/dynamo/table-definition-import';
import { cloudFormationText } from '../../src/shared/dynamo/table-request-text';
import { toCreateTableRequest } from '../../src/shared/dynamo/table-definition';
import { uniqueTableName } from '../support/dynamo-local';
import { createMultiKeyTable, MULTI_INDEX, MULTI_KEY_SCHEMA } from '../support/multi-key-table';
import { rawDynamo } from '../support/raw-dynamo';

const endpoint = inject('dynamoEndpoint');

type Described = {
  Table: {
    AttributeDefinitions: { AttributeName: string; AttributeType: string }[];
    GlobalSecondaryIndexes?: { IndexName: string; KeySchema: unknown }[];
  };
};

describe('a table definition with a 2 + 2 multi-attribute GSI, exported and imported', () => {
  it('round-trips DescribeTable → CloudFormation → CreateTable with every key attribute in order', async () => {
    const source = uniqueTableName('defmulti');
    await createMultiKeyTable(endpoint, source, 0);
    const described = await rawDynamo<Described>(endpoint, 'DescribeTable', { TableName: source });
    const copy = uniqueTableName('defmulticopy');
    const exported = cloudFormationText(definitionFromDescription(described, copy).definition);
    const imported = parseTableText(exported);
    expect(imported.source).toBe('CloudFormation');
    await rawDynamo(endpoint, 'CreateTable', toCreateTableRequest(imported.definition));
    const recreated = await rawDynamo<Described>(endpoint, 'DescribeTable', { TableName: copy });
    const index = recreated.Table.GlobalSecondaryIndexes?.find((g) => g.IndexName === MULTI_INDEX);
    expect(index?.KeySchema).toEqual(MULTI_KEY_SCHEMA);
    const types = (d: Described) =>
      Object.fromEntries(d.Table.AttributeDefinitions.map((a) => [a.AttributeName, a.AttributeType]));
    expect(types(recreated)).toEqual(types(described));
  });
});
