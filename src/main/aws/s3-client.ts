import { S3Client } from '@aws-sdk/client-s3';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { CoreContext } from '../core/context';
import { clientConfigFor } from './client-config';

/**
 * An S3 client acting as a connection: its credentials (the same refreshing providers as its
 * DynamoDB client), its region, and its endpoint when it has one. A connection with its own
 * endpoint is a stand-in that serves S3 on the same address (LocalStack's edge port, the tests'
 * export server): such endpoints name buckets in the path, not in the host name. Built in main
 * only; it reads export files and never writes (exports and imports move data inside AWS).
 */
export async function s3ClientFor(ctx: CoreContext, connectionId: string): Promise<S3Client> {
  const connection = await ctx.connections.get(connectionId);
  if (connection.kind === 'playground')
    throw new AppFailure(
      ErrorCodes.notSupported,
      'The local playground is DynamoDB Local, which has no S3; open exports from a connection to AWS.',
    );
  const config = clientConfigFor(connection, {
    secrets: ctx.secrets,
    playground: ctx.playground,
    profileCredentials: ctx.profileCredentials,
  });
  // The DynamoDB client's own provider and region: one MFA prompt or role session per
  // connection, and a command line's connection (ad-hoc flags) gets the credentials its flags say.
  const dynamo = await ctx.clients.dynamo(connectionId);
  return s3ClientOf({
    ...config,
    region: await dynamo.config.region(),
    credentials: dynamo.config.credentials,
  });
}

/** The same S3 client from settings the CLI's flags give (region, endpoint, credentials). */
export function s3ClientOf(
  config: ConstructorParameters<typeof S3Client>[0] & { endpoint?: string },
): S3Client {
  return new S3Client({
    ...config,
    ...(config.endpoint
      ? {
          forcePathStyle: true,
          // Stand-ins such as s3rver predate S3's default flexible checksums.
          requestChecksumCalculation: 'WHEN_REQUIRED' as const,
          responseChecksumValidation: 'WHEN_REQUIRED' as const,
        }
      : {}),
  });
}
