import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AccessKeys, Connection, ConnectionDraft } from '../../shared/ipc';
import type { MfaPrompts } from '../aws/mfa-prompts';
import type { FileChooser } from '../files/file-chooser';
import type { ProfileCredentials } from '../aws/profile-credentials';
import type { ResultSetStore } from '../resultsets/types';
import type { EventBus } from './events';
import type { OperationRegistry } from './operations';

/** Encrypts secrets at rest. Electron's safeStorage in the desktop app; unavailable elsewhere. */
export interface SecretStore {
  isAvailable(): boolean;
  /** Throws AppFailure(EncryptionUnavailable) when isAvailable() is false. */
  save(connectionId: string, keys: AccessKeys): Promise<void>;
  load(connectionId: string): Promise<AccessKeys | undefined>;
  remove(connectionId: string): Promise<void>;
  /**
   * A secret that is not access keys (an MCP exposure's bearer token), under a plain name, with
   * the same encryption; refused (EncryptionUnavailable) where keys would be.
   */
  saveText(name: string, text: string): Promise<void>;
  loadText(name: string): Promise<string | undefined>;
}

export interface ConnectionStore {
  list(): Promise<Connection[]>;
  get(id: string): Promise<Connection>;
  /**
   * Creates (no id: a new id is assigned) or updates a connection. Access keys, when given,
   * go to the SecretStore first, so a connection is never saved pointing at keys that were refused.
   */
  save(connection: ConnectionDraft, accessKeys?: AccessKeys): Promise<Connection>;
  remove(id: string): Promise<boolean>;
}

export interface ClientFactory {
  /**
   * A DynamoDB client for a connection, built on refreshing credential providers. Clients of
   * read-only connections carry a middleware that refuses every write command in main.
   */
  dynamo(connectionId: string): Promise<DynamoDBClient>;
  /**
   * The same connection's credentials in another region (the table list across regions). A
   * connection with its own endpoint is one region: this is then its usual client.
   */
  dynamoIn(connectionId: string, region: string): Promise<DynamoDBClient>;
  /** Drop cached clients (after a connection was edited or signed in again). */
  invalidate(connectionId?: string): void;
  destroy(): void;
}

export interface PlaygroundStatus {
  state: 'stopped' | 'starting' | 'running' | 'unavailable' | 'failed';
  endpoint?: string;
  message?: string;
  seeded?: boolean;
}

export interface Playground {
  status(): PlaygroundStatus;
  /** Starts DynamoDB Local (and seeds it on first start); resolves when it answers. */
  start(): Promise<PlaygroundStatus>;
  stop(): Promise<void>;
}

export interface CoreContext {
  mode: 'desktop' | 'browser';
  version: string;
  platform: string;
  dataDir: string;
  secrets: SecretStore;
  connections: ConnectionStore;
  clients: ClientFactory;
  /** AWS profiles' credentials; a session won with an MFA code is shared until it expires. */
  profileCredentials: ProfileCredentials;
  /** Asks the renderer for MFA codes (`mfa` events) and takes its answers (`connections:mfaCode`). */
  mfa: MfaPrompts;
  playground: Playground;
  resultSets: ResultSetStore;
  operations: OperationRegistry;
  events: EventBus;
  /** SQL, the agent and the migration store: made from this context by the slots their rooms declare, closed by shutdownCore. */
  services: Services;
  /** The desktop's open/save dialogs behind files:choose, and the paths they chose. */
  files: FileChooser;
  /** Opens http(s) links from the allow-list in the user's browser; false when refused. */
  openExternal(url: string): Promise<boolean>;
  /** Starts an SSO device sign-in for a profile connection; progress arrives as operation events. */
  signIn(connectionId: string, requestId: string): Promise<void>;
}

/**
 * One long-lived service of the core, declared by the room that owns it (sql/, agent/,
 * migration/): how to make it from the context, and how to stop it. The core keeps the one
 * instance; it never imports the rooms above it, so the floor everything stands on stays a floor.
 */
export interface ServiceSlot<T> {
  name: string;
  create(ctx: CoreContext): T;
  /** What holds threads or waits is stopped by shutdownCore. */
  close?(service: T): Promise<void>;
  /** Stores on disk may still be read while the core shuts down; threads may not start. */
  isUsableWhenClosed?: boolean;
}

/** The long-lived services of a core, by slot (core/services.ts keeps them). */
export interface Services {
  /** The slot's service, made now if it was not yet. */
  get<T>(slot: ServiceSlot<T>): T;
  /** The slot's service if one was made. */
  running<T>(slot: ServiceSlot<T>): T | undefined;
  close(): Promise<void>;
}
