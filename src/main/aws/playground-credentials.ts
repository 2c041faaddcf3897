/**
 * Credentials for the local playground. The playground runs DynamoDB Local with -sharedDb, so
 * any key and region see the same data; without it DynamoDB Local keeps one database per
 * access key id and region, and these would have to match the seeding exactly. DynamoDB
 * Local also insists on letters and digits only in the key id.
 */
export const PLAYGROUND_CREDENTIALS = { accessKeyId: 'dynotable', secretAccessKey: 'playground' } as const;
export const PLAYGROUND_SDK_REGION = 'us-east-1';
