import type { AwsCredentialIdentityProvider } from '@smithy/types';
import type { Connection } from '../../shared/ipc/connection';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { Playground } from '../core/context';
import { credentialsFor, type CredentialDeps } from './credentials';
import { PLAYGROUND_SDK_REGION } from './playground-credentials';
import { sdkTransport } from './sdk-options';

export interface ClientConfigDeps extends CredentialDeps {
  playground: Pick<Playground, 'status'>;
}

export interface ConnectionClientConfig extends ReturnType<typeof sdkTransport> {
  region: string;
  endpoint?: string;
  profile?: string;
  credentials: AwsCredentialIdentityProvider;
}

/** Where the local playground answers; a clear sentence when it does not. */
export function playgroundEndpoint(playground: Pick<Playground, 'status'>): string {
  const status = playground.status();
  if (status.state === 'running' && status.endpoint) return status.endpoint;
  const why = status.message ? ` ${status.message}` : '';
  throw new AppFailure(
    ErrorCodes.connectionFailed,
    `The local playground is not running (it is ${status.state}). Start it from the connection picker.${why}`,
    false,
    { playground: status.state },
  );
}

/** The settings any AWS client (DynamoDB, STS) needs to act as this connection. */
export function clientConfigFor(connection: Connection, deps: ClientConfigDeps): ConnectionClientConfig {
  const credentials = credentialsFor(connection, deps);
  if (connection.kind === 'playground') {
    return {
      ...sdkTransport(),
      region: PLAYGROUND_SDK_REGION,
      endpoint: playgroundEndpoint(deps.playground),
      credentials,
    };
  }
  return {
    ...sdkTransport(),
    region: connection.region,
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
    // The profile also brings its per-service settings (a `services` endpoint_url, for example).
    ...(connection.kind === 'profile' && connection.profile ? { profile: connection.profile } : {}),
    credentials,
  };
}
