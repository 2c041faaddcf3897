/**
 * DynamoDB Local keeps a separate database per access key id and region unless it runs with
 * -sharedDb. The playground's seeding and DynoTable's client must therefore use exactly these
 * values (DynamoDB Local also insists on letters and digits only in the key id).
 */
export const PLAYGROUND_CREDENTIALS = { accessKeyId: 'dynotable', secretAccessKey: 'playground' } as const;
export const PLAYGROUND_SDK_REGION = 'us-east-1';
