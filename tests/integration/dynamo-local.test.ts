import { CreateTableCommand, DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { expect, inject, it } from 'vitest';
import { localClient, uniqueTableName } from '../support/dynamo-local';

it('talks to the real DynamoDB Local the setup started', async () => {
  const client = localClient(inject('dynamoEndpoint'));
  const name = uniqueTableName('smoke');
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  const described = await client.send(new DescribeTableCommand({ TableName: name }));
  expect(described.Table?.TableStatus).toBe('ACTIVE');
  client.destroy();
});
