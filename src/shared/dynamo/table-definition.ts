import { z } from 'zod';
import { keyAttributes, keySchemaElements, type KeySchemaElementJson } from './key-model';

/**
 * A table as the Create table form edits it. One model for every starting point (blank,
 * template, copy, pasted JSON or CloudFormation), turned into the one CreateTable request that
 * is both shown to the user and sent by main (`toCreateTableRequest`).
 */
export const keyTypeSchema = z.enum(['S', 'N', 'B']);
export type KeyType = z.infer<typeof keyTypeSchema>;

/** Strings stay loose here so that bad input reaches `validateDefinition`, which says where. */
export const keyAttributeSchema = z.object({ name: z.string().max(1024), type: keyTypeSchema });
export type KeyAttribute = z.infer<typeof keyAttributeSchema>;

export const projectionSchema = z.object({
  type: z.enum(['ALL', 'KEYS_ONLY', 'INCLUDE']),
  attributes: z.array(z.string().max(1024)).max(200).optional(),
});
export type ProjectionDefinition = z.infer<typeof projectionSchema>;

export const globalIndexSchema = z.object({
  name: z.string().max(1024),
  partitionKey: keyAttributeSchema,
  sortKey: keyAttributeSchema.optional(),
  /** A multi-attribute key's 2nd to 4th partition and sort attributes, in order (key-model.ts). */
  morePartitionKeys: z.array(keyAttributeSchema).max(3).optional(),
  moreSortKeys: z.array(keyAttributeSchema).max(3).optional(),
  projection: projectionSchema,
  /** Provisioned tables only: every GSI has its own capacity. */
  readCapacity: z.number().optional(),
  writeCapacity: z.number().optional(),
});
export type GlobalIndexDefinition = z.infer<typeof globalIndexSchema>;

export const localIndexSchema = z.object({
  name: z.string().max(1024),
  sortKey: keyAttributeSchema,
  projection: projectionSchema,
});
export type LocalIndexDefinition = z.infer<typeof localIndexSchema>;

export const streamViewTypeSchema = z.enum(['NEW_IMAGE', 'OLD_IMAGE', 'NEW_AND_OLD_IMAGES', 'KEYS_ONLY']);
export type StreamViewType = z.infer<typeof streamViewTypeSchema>;
export const tableClassSchema = z.enum(['STANDARD', 'STANDARD_INFREQUENT_ACCESS']);
export type TableClass = z.infer<typeof tableClassSchema>;

export const tagSchema = z.object({ key: z.string().max(1024), value: z.string().max(1024) });
export type Tag = z.infer<typeof tagSchema>;

export const tableDefinitionSchema = z.object({
  name: z.string().max(1024),
  partitionKey: keyAttributeSchema,
  sortKey: keyAttributeSchema.optional(),
  billingMode: z.enum(['PAY_PER_REQUEST', 'PROVISIONED']),
  readCapacity: z.number().optional(),
  writeCapacity: z.number().optional(),
  globalIndexes: z.array(globalIndexSchema).max(100),
  localIndexes: z.array(localIndexSchema).max(100),
  /** Set with UpdateTimeToLive once the table is ACTIVE: CreateTable has no TTL field. */
  ttlAttribute: z.string().max(1024).optional(),
  streamViewType: streamViewTypeSchema.optional(),
  deletionProtection: z.boolean(),
  tableClass: tableClassSchema,
  tags: z.array(tagSchema).max(100),
});
export type TableDefinition = z.infer<typeof tableDefinitionSchema>;

export function blankDefinition(): TableDefinition {
  return {
    name: '',
    partitionKey: { name: '', type: 'S' },
    billingMode: 'PAY_PER_REQUEST',
    globalIndexes: [],
    localIndexes: [],
    deletionProtection: false,
    tableClass: 'STANDARD',
    tags: [],
  };
}

/**
 * The single-table design layout of shared/reference (PK/SK, one overloaded GSI1 on
 * GSI1PK/GSI1SK, an `expiresAt` TTL for idempotency markers), on-demand to start with.
 */
export function singleTableDefinition(name = 'AppTable'): TableDefinition {
  return {
    ...blankDefinition(),
    name,
    partitionKey: { name: 'PK', type: 'S' },
    sortKey: { name: 'SK', type: 'S' },
    globalIndexes: [
      {
        name: 'GSI1',
        partitionKey: { name: 'GSI1PK', type: 'S' },
        sortKey: { name: 'GSI1SK', type: 'S' },
        projection: { type: 'ALL' },
      },
    ],
    ttlAttribute: 'expiresAt',
  };
}

type KeySchemaElement = KeySchemaElementJson;
interface Projection {
  ProjectionType: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  NonKeyAttributes?: string[];
}
interface Throughput {
  ReadCapacityUnits: number;
  WriteCapacityUnits: number;
}

/** CreateTable's input as DynamoDB's JSON API spells it (what the SDK, the CLI and the wire take). */
export interface CreateTableRequest {
  TableName: string;
  AttributeDefinitions: { AttributeName: string; AttributeType: KeyType }[];
  KeySchema: KeySchemaElement[];
  BillingMode: 'PAY_PER_REQUEST' | 'PROVISIONED';
  ProvisionedThroughput?: Throughput;
  GlobalSecondaryIndexes?: {
    IndexName: string;
    KeySchema: KeySchemaElement[];
    Projection: Projection;
    ProvisionedThroughput?: Throughput;
  }[];
  LocalSecondaryIndexes?: { IndexName: string; KeySchema: KeySchemaElement[]; Projection: Projection }[];
  StreamSpecification?: { StreamEnabled: boolean; StreamViewType: StreamViewType };
  TableClass?: TableClass;
  DeletionProtectionEnabled?: boolean;
  Tags?: { Key: string; Value: string }[];
}

export interface TimeToLiveRequest {
  TableName: string;
  TimeToLiveSpecification: { Enabled: boolean; AttributeName: string };
}

export function keySchemaOf(partitionKey: KeyAttribute, sortKey?: KeyAttribute): KeySchemaElement[] {
  return keySchemaElements({ partitionKey, sortKey });
}

export function projectionOf(projection: ProjectionDefinition): Projection {
  return projection.type === 'INCLUDE'
    ? { ProjectionType: 'INCLUDE', NonKeyAttributes: projection.attributes ?? [] }
    : { ProjectionType: projection.type };
}

/** Every key attribute of the table and its indexes, each once, in the order they first appear. */
export function keyAttributesOfDefinition(definition: TableDefinition): KeyAttribute[] {
  const all = [
    definition.partitionKey,
    ...(definition.sortKey ? [definition.sortKey] : []),
    ...definition.globalIndexes.flatMap((g) => keyAttributes(g)),
    ...definition.localIndexes.map((l) => l.sortKey),
  ];
  const seen = new Map<string, KeyAttribute>();
  for (const attribute of all) if (!seen.has(attribute.name)) seen.set(attribute.name, attribute);
  return [...seen.values()];
}

export function toCreateTableRequest(definition: TableDefinition): CreateTableRequest {
  const isProvisioned = definition.billingMode === 'PROVISIONED';
  const throughput = (read?: number, write?: number): Throughput => ({
    ReadCapacityUnits: read ?? 1,
    WriteCapacityUnits: write ?? 1,
  });
  const request: CreateTableRequest = {
    TableName: definition.name,
    AttributeDefinitions: keyAttributesOfDefinition(definition).map((a) => ({
      AttributeName: a.name,
      AttributeType: a.type,
    })),
    KeySchema: keySchemaOf(definition.partitionKey, definition.sortKey),
    BillingMode: definition.billingMode,
  };
  if (isProvisioned)
    request.ProvisionedThroughput = throughput(definition.readCapacity, definition.writeCapacity);
  if (definition.globalIndexes.length > 0)
    request.GlobalSecondaryIndexes = definition.globalIndexes.map((g) => ({
      IndexName: g.name,
      KeySchema: keySchemaElements(g),
      Projection: projectionOf(g.projection),
      ...(isProvisioned ? { ProvisionedThroughput: throughput(g.readCapacity, g.writeCapacity) } : {}),
    }));
  if (definition.localIndexes.length > 0)
    request.LocalSecondaryIndexes = definition.localIndexes.map((l) => ({
      IndexName: l.name,
      KeySchema: keySchemaOf(definition.partitionKey, l.sortKey),
      Projection: projectionOf(l.projection),
    }));
  if (definition.streamViewType)
    request.StreamSpecification = { StreamEnabled: true, StreamViewType: definition.streamViewType };
  // Only what differs from DynamoDB's defaults, so the request shown stays short.
  if (definition.tableClass !== 'STANDARD') request.TableClass = definition.tableClass;
  if (definition.deletionProtection) request.DeletionProtectionEnabled = true;
  if (definition.tags.length > 0) request.Tags = definition.tags.map((t) => ({ Key: t.key, Value: t.value }));
  return request;
}

export function toTimeToLiveRequest(definition: TableDefinition): TimeToLiveRequest | undefined {
  const attribute = definition.ttlAttribute?.trim();
  return attribute
    ? { TableName: definition.name, TimeToLiveSpecification: { Enabled: true, AttributeName: attribute } }
    : undefined;
}
