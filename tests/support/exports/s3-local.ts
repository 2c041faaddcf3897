import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { freePort } from '../dynamo-local';

export interface LocalS3 {
  endpoint: string;
  /** A real S3 client pointed at the local server. */
  client(): S3Client;
  createBucket(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * s3rver (3.x) predates the SDK's default flexible checksums: a streamed PutObject goes out
 * aws-chunked with a trailing CRC32, and s3rver stores the chunk framing as the object's bytes
 * (seen: a 1,200-byte body read back as 1,243 bytes starting "4b0\r\n"). Asking for checksums
 * only WHEN_REQUIRED makes the SDK send plain bodies, which s3rver stores as sent; real S3
 * accepts either, so nothing the app relies on changes.
 */
export function localS3Client(endpoint: string): S3Client {
  return new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/**
 * s3rver knows one access key (S3RVER) and refuses others with InvalidAccessKeyId even when it
 * ignores signatures. The app's connections in tests sign with the keys DynamoDB Local takes
 * (`local`, from the environment in browser-core.ts), so s3rver is told those keys too.
 */
function acceptKeys(ids: string[]): void {
  const account = createRequire(import.meta.url)('s3rver/lib/models/account') as {
    DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void };
  };
  for (const id of ids) account.DUMMY_ACCOUNT.createKeyPair(id, id);
}

/**
 * Starts s3rver on a free loopback port with a data folder of its own. `accessKeyIds`: more keys
 * it takes, for connections that sign with a profile's keys (the e2e `e2e-keys` profile).
 */
export async function startLocalS3(options: { accessKeyIds?: string[] } = {}): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'dynotable-s3-'));
  const port = await freePort();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    vhostBuckets: false,
    allowMismatchedSignatures: true,
  });
  await server.run();
  acceptKeys(['local', process.env.AWS_ACCESS_KEY_ID ?? 'local', ...(options.accessKeyIds ?? [])]);
  const endpoint = `http://127.0.0.1:${port}`;
  const clients: S3Client[] = [];
  return {
    endpoint,
    client() {
      const client = localS3Client(endpoint);
      clients.push(client);
      return client;
    },
    async createBucket(name) {
      const client = localS3Client(endpoint);
      try {
        await client.send(new CreateBucketCommand({ Bucket: name }));
      } finally {
        client.destroy();
      }
    },
    async stop() {
      for (const client of clients) client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
