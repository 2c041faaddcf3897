import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../support/dynamo-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/** One real DynamoDB Local for the integration run; each test makes its own table in it. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const local = await startDynamoLocal();
  project.provide('dynamoEndpoint', local.endpoint);
  return () => local.stop();
}
