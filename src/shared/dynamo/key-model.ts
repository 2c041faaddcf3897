import type { KeyAttributeInfo as KeyAttribute, KeySchema } from '../ipc/tables';

/**
 * The one key model: a table's or an index's partition attributes and sort attributes, each in
 * KeySchema order. Since November 2025 a global secondary index may have up to four of each
 * (multi-attribute keys); a table and a local index keep one of each. `partitionKey`/`sortKey`
 * are the first attributes, `morePartitionKeys`/`moreSortKeys` the rest: single-attribute
 * readers keep reading the first, and every reader of a whole key asks here.
 */
export const MAX_KEY_ATTRIBUTES = 4;

/** The shape both the described table (KeySchema) and the create form's index carry. */
export type KeyParts = Pick<KeySchema, 'partitionKey' | 'sortKey' | 'morePartitionKeys' | 'moreSortKeys'>;

export function partitionAttributes(keys: KeyParts): KeyAttribute[] {
  return [keys.partitionKey, ...(keys.morePartitionKeys ?? [])];
}

export function sortAttributes(keys: KeyParts): KeyAttribute[] {
  return keys.sortKey ? [keys.sortKey, ...(keys.moreSortKeys ?? [])] : [];
}

/** Partition attributes first, then sort attributes, each in KeySchema order. */
export function keyAttributes(keys: KeyParts): KeyAttribute[] {
  return [...partitionAttributes(keys), ...sortAttributes(keys)];
}

export function keyAttributeNames(keys: KeyParts): string[] {
  return keyAttributes(keys).map((a) => a.name);
}

export function isMultiAttribute(keys: KeyParts): boolean {
  return (keys.morePartitionKeys?.length ?? 0) > 0 || (keys.moreSortKeys?.length ?? 0) > 0;
}

/** The key model from ordered partition and sort attributes (an empty sort list: no sort key). */
export function keyPartsOf(partition: KeyAttribute[], sort: KeyAttribute[]): KeySchema {
  const [partitionKey = { name: '', type: 'S' as const }, ...morePartition] = partition;
  const [sortKey, ...moreSort] = sort;
  return {
    partitionKey,
    ...(sortKey ? { sortKey } : {}),
    ...(morePartition.length > 0 ? { morePartitionKeys: morePartition } : {}),
    ...(moreSort.length > 0 ? { moreSortKeys: moreSort } : {}),
  };
}

export interface KeySchemaElementJson {
  AttributeName: string;
  KeyType: 'HASH' | 'RANGE';
}

/** DynamoDB's KeySchema: every HASH element, then every RANGE element, in order. */
export function keySchemaElements(keys: KeyParts): KeySchemaElementJson[] {
  return [
    ...partitionAttributes(keys).map((a) => ({ AttributeName: a.name, KeyType: 'HASH' as const })),
    ...sortAttributes(keys).map((a) => ({ AttributeName: a.name, KeyType: 'RANGE' as const })),
  ];
}

/**
 * Reads a KeySchema (DescribeTable, CreateTable, CloudFormation) into the model, keeping every
 * HASH and RANGE element in its order; `typeOf` gives each attribute's type from
 * AttributeDefinitions. Undefined when it names no HASH attribute.
 */
export function keysFromElements(
  elements: readonly { AttributeName?: unknown; KeyType?: unknown }[],
  typeOf: (name: string) => KeyAttribute['type'],
): KeySchema | undefined {
  const named = (type: string): KeyAttribute[] =>
    elements
      .filter((e) => e.KeyType === type && typeof e.AttributeName === 'string')
      .map((e) => ({ name: e.AttributeName as string, type: typeOf(e.AttributeName as string) }));
  const partition = named('HASH');
  if (partition.length === 0) return undefined;
  return keyPartsOf(partition, named('RANGE'));
}

/** A key in words, for labels and plans: `tenant + region / day + seq`. */
export function keyText(keys: KeyParts): string {
  const part = partitionAttributes(keys)
    .map((a) => a.name)
    .join(' + ');
  const sort = sortAttributes(keys)
    .map((a) => a.name)
    .join(' + ');
  return sort ? `${part} / ${sort}` : part;
}

/** Where one attribute sits in one index's key: `kind` attribute `position` of `count`. */
export interface IndexKeyRole {
  index: string;
  kind: 'partition' | 'sort';
  position: number;
  count: number;
}

/**
 * Every attribute that keys an index, with each index it keys and where: all the attributes of
 * a multi-attribute key, not only its first. A Map, since attribute names are data.
 */
export function indexKeyRoles(
  indexes: readonly { name: string; keys: KeyParts }[],
): Map<string, IndexKeyRole[]> {
  const roles = new Map<string, IndexKeyRole[]>();
  for (const index of indexes)
    for (const [kind, attributes] of [
      ['partition', partitionAttributes(index.keys)],
      ['sort', sortAttributes(index.keys)],
    ] as const)
      attributes.forEach((attribute, i) => {
        const role = { index: index.name, kind, position: i + 1, count: attributes.length };
        roles.set(attribute.name, [...(roles.get(attribute.name) ?? []), role]);
      });
  return roles;
}

/** `byHostile partition key, 2 of 2` (or `byX sort key` for a single-attribute key). */
export function roleText(role: IndexKeyRole): string {
  const key = role.kind === 'partition' ? 'partition key' : 'sort key';
  return role.count === 1
    ? `${role.index} ${key}`
    : `${role.index} ${key}, ${role.position} of ${role.count}`;
}

/**
 * The key attributes a view of a table or of one of its indexes puts first: the table's
 * partition and sort attributes, then the index's partition attributes and sort attributes, each
 * in key-model order and each once (an index may share an attribute with the table's key).
 */
export function viewKeyNames(table: KeyParts, index?: KeyParts): string[] {
  return [...new Set([...keyAttributeNames(table), ...(index ? keyAttributeNames(index) : [])])];
}
