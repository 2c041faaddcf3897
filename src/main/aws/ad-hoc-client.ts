import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { fromEnv, fromIni, fromNodeProviderChain } from '@aws-sdk/credential-providers';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { Connection } from '../../shared/ipc/connection';
import type { ClientFactory, ConnectionStore } from '../core/context';
import { dynamoClient } from './dynamo-client';
import type { MfaPrompts } from './mfa-prompts';
import { createProfileCredentials } from './profile-credentials';

/** Where a command line says DynamoDB is: `--profile`, `--region`, `--endpoint`. */
export interface AdHocFlags {
  profile?: string | undefined;
  region?: string | undefined;
  endpoint?: string | undefined;
}

export interface AdHocConnection extends AdHocFlags {
  /** Asks for the code of a profile with mfa_serial; the CLI asks on the terminal. */
  mfa: Pick<MfaPrompts, 'ask'>;
  /** The connection is read-only: the client refuses every write (dynamo-client.ts). */
  readOnly?: boolean;
}

function isLoopback(endpoint: string | undefined): boolean {
  if (!endpoint) return false;
  try {
    const host = new URL(endpoint).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
  } catch {
    return false;
  }
}

/**
 * DynamoDB Local accepts any keys, so a CI job pointing at it need not invent some: the
 * environment, then the default profile, then fixed placeholder keys. Not the full default chain:
 * its instance-metadata step would dial out of the machine looking for keys Local never checks.
 */
function localCredentials(): AwsCredentialIdentityProvider {
  const env = fromEnv();
  const ini = fromIni({ ignoreCache: true });
  return async () => {
    for (const provider of [env, ini]) {
      try {
        return await provider();
      } catch {
        // try the next one
      }
    }
    return { accessKeyId: 'local', secretAccessKey: 'local' };
  };
}

/** The region a command line means: the flag, the environment, or Local's placeholder. */
function regionOf(flags: AdHocFlags): string | undefined {
  return (
    flags.region ??
    process.env.AWS_REGION ??
    process.env.AWS_DEFAULT_REGION ??
    (flags.endpoint ? 'us-east-1' : undefined)
  );
}

/**
 * The client of a connection named by command-line flags, for CI: credentials come from the
 * profile (SSO, assume-role and credential_process included) or the default chain (environment
 * variables in most pipelines); the region from the flag, the environment or the profile. Built
 * by the one builder (dynamo-client.ts), so it has the app's transport (timeouts, adaptive retry),
 * keeps `__proto__` names and carries the read-only guard when asked. An MFA profile goes through
 * the app's createProfileCredentials, so its STS answers read the same.
 */
export function adHocClient(connection: AdHocConnection): DynamoDBClient {
  const region = regionOf(connection);
  return dynamoClient({
    ...(region ? { region } : {}),
    ...(connection.endpoint ? { endpoint: connection.endpoint } : {}),
    ...(connection.profile ? { profile: connection.profile } : {}),
    credentials: connection.profile
      ? createProfileCredentials(connection.mfa)(connection.profile)
      : isLoopback(connection.endpoint)
        ? localCredentials()
        : fromNodeProviderChain(),
    readOnly: connection.readOnly,
  });
}

/**
 * The id of the connection some flags name. The same flags give the same id in every run, so a
 * copy's checkpoint (which records it) is found again by `--resume` with the same flags.
 */
export function adHocConnectionId(flags: AdHocFlags): string {
  return `cli:${JSON.stringify([flags.profile ?? '', flags.region ?? '', flags.endpoint ?? ''])}`;
}

const isAdHocId = (id: string): boolean => id.startsWith('cli:');

interface Entry {
  connection: Connection;
  flags: AdHocFlags;
  client?: DynamoDBClient;
}

/**
 * The connections a CLI command names by flags, as connections of its core: in memory only (never
 * written to connections.json, no secret anywhere), served by the core's connection store and
 * client factory like saved ones, so the services' guards (read-only, production), journal and
 * checkpoints treat them as they treat the app's. Built before the core; the core wraps its store
 * and factory with it (createCore's `adHoc`), and its shutdown destroys these clients too.
 */
export class AdHocConnections {
  private readonly entries = new Map<string, Entry>();
  /** Serves a `cli:` id this run did not name (a checkpoint of an earlier run's flags). */
  private fallback?: AdHocFlags;

  constructor(private readonly mfa: Pick<MfaPrompts, 'ask'>) {}

  /** The in-memory connection for these flags (the same one for the same flags). */
  add(flags: AdHocFlags, options: { label?: string; readOnly?: boolean } = {}): Connection {
    const id = adHocConnectionId(flags);
    const known = this.entries.get(id);
    if (known) return known.connection;
    return this.register(id, flags, options);
  }

  /**
   * These flags also serve any `cli:` connection of an earlier run that this run does not name:
   * `export table --resume ID` goes on with the flags it is given, as it always has.
   */
  serveOthersWith(flags: AdHocFlags): void {
    this.fallback = flags;
  }

  private register(
    id: string,
    flags: AdHocFlags,
    options: { label?: string; readOnly?: boolean },
  ): Connection {
    const connection: Connection = {
      id,
      label: options.label ?? flags.endpoint ?? flags.profile ?? 'the default AWS credentials',
      color: '#1f6feb',
      kind: flags.profile ? 'profile' : 'default-chain',
      ...(flags.profile ? { profile: flags.profile } : {}),
      region: regionOf(flags) ?? 'us-east-1',
      ...(flags.endpoint ? { endpoint: flags.endpoint } : {}),
      readOnly: options.readOnly ?? false,
      isProduction: false,
    };
    this.entries.set(id, { connection, flags });
    return connection;
  }

  private entry(id: string): Entry | undefined {
    const known = this.entries.get(id);
    if (known || !isAdHocId(id) || !this.fallback) return known;
    this.register(id, this.fallback, {});
    return this.entries.get(id);
  }

  private client(entry: Entry): DynamoDBClient {
    entry.client ??= adHocClient({ ...entry.flags, mfa: this.mfa, readOnly: entry.connection.readOnly });
    return entry.client;
  }

  /** The core's connection store, answering for these connections first; nothing of theirs is saved. */
  wrapConnections(store: ConnectionStore): ConnectionStore {
    return {
      list: () => store.list(),
      get: (id) => {
        const entry = this.entry(id);
        if (entry) return Promise.resolve(entry.connection);
        if (isAdHocId(id))
          return Promise.reject(
            new AppFailure(
              ErrorCodes.notFound,
              'That connection was named on a command line by flags this command was not given.',
            ),
          );
        return store.get(id);
      },
      save: (draft, keys) => store.save(draft, keys),
      remove: (id) => store.remove(id),
    };
  }

  /** The core's client factory, serving these connections with their flags' clients. */
  wrapClients(clients: ClientFactory): ClientFactory {
    return {
      dynamo: (id) => {
        const entry = this.entry(id);
        return entry ? Promise.resolve(this.client(entry)) : clients.dynamo(id);
      },
      // A command line's connection is one endpoint and region, as its flags give them.
      dynamoIn: (id, region) => {
        const entry = this.entry(id);
        return entry ? Promise.resolve(this.client(entry)) : clients.dynamoIn(id, region);
      },
      invalidate: (id) => clients.invalidate(id),
      destroy: () => {
        for (const entry of this.entries.values()) entry.client?.destroy();
        clients.destroy();
      },
    };
  }
}
