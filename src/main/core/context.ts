import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AccessKeys, Connection, ConnectionDraft, Item } from '../../shared/ipc';
import type { CollapseChange } from '../../shared/dynamo/collapse-state';
import type { CollectionHeader, ViewSpec } from '../../shared/ipc/query';
import type { MfaPrompts } from '../aws/mfa-prompts';
import type { FileChooser } from '../files/file-chooser';
import type { ProfileCredentials } from '../aws/profile-credentials';
import type { ReadScope } from '../resultsets/read-match';
import type { EventBus } from './events';
import type { OperationRegistry } from './operations';

/** Encrypts secrets at rest. Electron's safeStorage in the desktop app; unavailable elsewhere. */
export interface SecretStore {
  isAvailable(): boolean;
  /** Throws AppFailure(EncryptionUnavailable) when isAvailable() is false. */
  save(connectionId: string, keys: AccessKeys): Promise<void>;
  load(connectionId: string): Promise<AccessKeys | undefined>;
  remove(connectionId: string): Promise<void>;
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

export interface ResultSetWindow {
  total: number;
  offset: number;
  rows: Item[];
  columns: string[];
  /** Collection views only: the header rows among the window's positions, and each row's item position. */
  headers?: CollectionHeader[];
  positions?: number[];
  /** Rows the user's own writes changed or created, by their place in `rows`. */
  marks?: WindowMark[];
}

export interface WindowMark {
  at: number;
  mark: 'changed' | 'new';
}

/** One item DynoTable wrote: what DynamoDB now holds under that key, or null when deleted. */
export interface WrittenItem {
  key: Item;
  item: Item | null;
  /**
   * The stored item a failed condition returned (someone else's change): shown where the row
   * is, unmarked, and never added.
   */
  isRefresh?: boolean;
}

/** One change of an incremental export: the item with this key now holds `item`, or is gone. */
export interface ExportChange {
  key: Item;
  item?: Item;
}

export interface WriteBatch {
  connectionId: string;
  table: string;
  writes: WrittenItem[];
}

/** A result set that a write changed: its rows now, and its current view's sizes. */
export interface ResultSetChange {
  resultSetId: string;
  total: number;
  /** A write may have changed which rows its read returns, in a way we could not evaluate. */
  isStale: boolean;
  /** Each view of the set, by id, with its sizes now. */
  views: ViewSummary[];
  /**
   * Rows rewritten in place, as the read shows them (its projection) with their mark now: a
   * window holding one shows it at once, before it reads its rows again.
   */
  replaced?: ReplacedRow[];
}

/** A row a write rewrote in place; no mark when it was refreshed with someone else's change. */
export interface ReplacedRow {
  item: Item;
  mark?: 'changed' | 'new';
}

/** A collection view's sizes; `at` is where a changed collection's header now is. */
export interface CollectionSizes {
  total: number;
  collections: number;
  items: number;
  /** Rows per entity type over every fetched row, as resultsets:view reports them. */
  entities: Record<string, number>;
  at?: number;
  /** The result set's change counter when these sizes were true (see ViewSummary.seq). */
  seq?: number;
}

export type { CollapseChange };

export interface ViewSummary {
  viewId: string;
  total: number;
  entities?: Record<string, number>;
  collections?: number;
  items?: number;
  /** The named view's revision that these sizes describe (see resultsets:view). */
  revision?: number;
  /** The result set's change counter when these sizes were true: a higher one is newer. */
  seq: number;
}

export interface WireAppend {
  total: number;
  items: number;
  /** The response's fields other than Items, parsed (Count, ScannedCount, LastEvaluatedKey, ConsumedCapacity). */
  rest: Record<string, unknown>;
}

export interface ResultSetMeta {
  connectionId: string;
  table: string;
  keyAttributes: string[];
  /** How the rows were read; without it, writes DynoTable makes are not applied to the set. */
  scope?: ReadScope;
}

/** Everything fetched lives here, off main's event loop, keyed by id. */
export interface ResultSetStore {
  create(meta: ResultSetMeta): Promise<string>;
  append(resultSetId: string, items: Item[]): Promise<number>;
  /** `itemsOnly`: in a collection view, offsets count items as if every collection were expanded. */
  window(
    resultSetId: string,
    offset: number,
    limit: number,
    viewId?: string,
    itemsOnly?: boolean,
  ): Promise<ResultSetWindow>;
  /**
   * Appends the Items of a raw Query/Scan response body (its own ArrayBuffer, transferred to
   * the worker), encoded without building objects; returns the rows after it and the other fields.
   */
  appendWire(resultSetId: string, body: Uint8Array): Promise<WireAppend>;
  /** Appends whole `{"Item":…}` lines of a DynamoDB-JSON export data file (body transferred); returns the rows after it. */
  appendExportLines(resultSetId: string, body: Uint8Array): Promise<number>;
  /** Applies an incremental export's changes to the rows of its base; returns the rows after it. */
  applyExportChanges(resultSetId: string, changes: ExportChange[]): Promise<number>;
  /**
   * Sorts/filters the fetched rows in the worker; window(…, viewId) then reads in that order.
   * `name` keeps one view per name (else one unnamed view), `revision` orders its builds.
   */
  view(resultSetId: string, spec: ViewSpec, name?: string, revision?: number): Promise<ViewSummary>;
  /** Collapses/expands item collections of a collection view, or (no change) reports its sizes. */
  collections(resultSetId: string, viewId: string, change?: CollapseChange): Promise<CollectionSizes>;
  /** Applies writes DynoTable made to every result set that could hold the items. */
  applyWrites(batch: WriteBatch): Promise<ResultSetChange[]>;
  drop(resultSetId: string): Promise<boolean>;
  close(): Promise<void>;
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
