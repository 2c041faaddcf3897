import { AthenaClient } from '@aws-sdk/client-athena';
import { GlueClient } from '@aws-sdk/client-glue';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { sdkTransport } from '../aws/sdk-options';

export interface AthenaClients {
  athena: AthenaClient;
  glue: GlueClient;
}

/**
 * Athena and Glue for a connection, built on its DynamoDB client's own region and refreshing
 * credential provider (credentials stay in main and keep refreshing). A connection with an
 * endpoint override reaches every service there, as LocalStack serves them all on one port.
 */
export async function athenaClientsFor(dynamo: DynamoDBClient): Promise<AthenaClients> {
  const region = await dynamo.config.region();
  const endpoint = dynamo.config.endpoint ? await dynamo.config.endpoint() : undefined;
  const url = endpoint?.hostname
    ? `${endpoint.protocol.replace(/:?$/, ':')}//${endpoint.hostname}${endpoint.port ? `:${endpoint.port}` : ''}${endpoint.path}`
    : undefined;
  const common = {
    ...sdkTransport(),
    region,
    credentials: dynamo.config.credentials,
    ...(url ? { endpoint: url } : {}),
  };
  return { athena: new AthenaClient(common), glue: new GlueClient(common) };
}
