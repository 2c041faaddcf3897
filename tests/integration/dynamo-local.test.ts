import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { expect, inject, it } from 'vitest';
import { localClient, uniqueTableName } from '../support/dynamo-local';
import { createTable } from '../support/dynamo-tables';

it('talks to the real DynamoDB Local the setup started', async () => {
  const client = localClient(inject('dynamoEndpoint'));
  const name = await createTable(client, uniqueTableName('smoke'), { partitionKey: ['pk', 'S'] });
  const described = await client.send(new DescribeTableCommand({ TableName: name }));
  expect(described.Table?.TableStatus).toBe('ACTIVE');
  client.destroy();
});
