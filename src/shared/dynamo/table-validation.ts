import { MAX_KEY_ATTRIBUTES, partitionAttributes, sortAttributes, type KeyParts } from './key-model';
import type { KeyAttribute, ProjectionDefinition, TableDefinition } from './table-definition';

/** A problem with one field of the form; `field` is its path (`globalIndexes.0.partitionKey.name`). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** DynamoDB's limits, as the CreateTable and UpdateTable references state them. */
export const LIMITS = {
  globalIndexes: 20,
  localIndexes: 5,
  /** Non-key attributes projected with INCLUDE, summed over every index of a table. */
  projectedAttributes: 100,
  tags: 50,
  attributeNameBytes: 255,
} as const;

const TABLE_OR_INDEX_NAME = /^[A-Za-z0-9_.-]{3,255}$/;

export function tableNameProblem(name: string, what = 'A table name'): string | undefined {
  if (name.length === 0) return `${what} is required.`;
  if (name.length < 3 || name.length > 255) return `${what} must be 3 to 255 characters long.`;
  if (!TABLE_OR_INDEX_NAME.test(name))
    return `${what} may contain only letters, digits, "_", "-" and "." (no spaces).`;
  return undefined;
}

function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

export function attributeNameProblem(name: string, what: string): string | undefined {
  if (name.length === 0) return `${what} needs a name.`;
  if (utf8Length(name) > LIMITS.attributeNameBytes)
    return `${what} may be at most ${LIMITS.attributeNameBytes} bytes long.`;
  return undefined;
}

export function capacityProblem(value: number | undefined, what: string): string | undefined {
  if (value === undefined || Number.isNaN(value)) return `${what} is required for provisioned capacity.`;
  if (!Number.isInteger(value) || value < 1) return `${what} must be a whole number of at least 1.`;
  return undefined;
}

/** A key attribute's name, and its type against the types the table's other keys gave it. */
function keyAttributeProblem(
  attribute: KeyAttribute,
  field: string,
  what: string,
  types: Map<string, KeyAttribute['type']>,
): FieldProblem | undefined {
  const problem = attributeNameProblem(attribute.name, what);
  if (problem) return { field: `${field}.name`, message: problem };
  const earlier = types.get(attribute.name);
  if (earlier !== undefined && earlier !== attribute.type)
    return {
      field: `${field}.type`,
      message: `"${attribute.name}" is already a key of type ${earlier}; one attribute has one type in every key.`,
    };
  types.set(attribute.name, attribute.type);
  return undefined;
}

/** Where the form edits a global index's partition or sort attribute at `position` (0-based). */
export function indexKeyField(at: string, kind: 'partition' | 'sort', position: number): string {
  if (position === 0) return `${at}.${kind}Key`;
  return `${at}.${kind === 'partition' ? 'morePartitionKeys' : 'moreSortKeys'}.${position - 1}`;
}

/**
 * A global index's key, as CreateTable and UpdateTable would take it: one to four partition
 * attributes and up to four sort attributes (multi-attribute keys, key-model.ts), each named,
 * each once, each of one type across the table's keys (`types`, which this adds to). The
 * create form and the Add-a-global-index change both ask here, each problem at its attribute.
 */
export function indexKeyProblems(
  index: KeyParts,
  at: string,
  types: Map<string, KeyAttribute['type']>,
): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (!index.sortKey && (index.moreSortKeys?.length ?? 0) > 0)
    out.push({
      field: `${at}.moreSortKeys`,
      message: 'Further sort attributes need a first sort attribute.',
    });
  const seen = new Set<string>();
  const lists = [
    ['partition', partitionAttributes(index)],
    ['sort', sortAttributes(index)],
  ] as const;
  for (const [kind, attributes] of lists) {
    if (attributes.length > MAX_KEY_ATTRIBUTES)
      out.push({
        field: indexKeyField(at, kind, MAX_KEY_ATTRIBUTES),
        message: `An index key has at most ${MAX_KEY_ATTRIBUTES} ${kind} attributes.`,
      });
    attributes.forEach((attribute, position) => {
      const field = indexKeyField(at, kind, position);
      if (attribute.name !== '' && seen.has(attribute.name)) {
        out.push({
          field: `${field}.name`,
          message: `"${attribute.name}" appears twice in the index's key; each key attribute appears once.`,
        });
        return;
      }
      seen.add(attribute.name);
      const what =
        position === 0 ? `The index's ${kind} key` : `The index's ${kind} attribute ${position + 1}`;
      const problem = keyAttributeProblem(attribute, field, what, types);
      if (problem) out.push(problem);
    });
  }
  return out;
}

/**
 * Every problem DynamoDB would refuse (and a few it would accept but a user did not mean),
 * each at its field, so the form can say it there before anything is sent. Main runs the same
 * check before CreateTable.
 */
export function validateDefinition(definition: TableDefinition): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const add = (field: string, message: string | undefined): void => {
    if (message) problems.push({ field, message });
  };
  add('name', tableNameProblem(definition.name));
  const types = new Map<string, KeyAttribute['type']>();
  const key = (attribute: KeyAttribute, field: string, what: string): void => {
    const problem = keyAttributeProblem(attribute, field, what, types);
    if (problem) problems.push(problem);
  };
  key(definition.partitionKey, 'partitionKey', 'The partition key');
  if (definition.sortKey) {
    key(definition.sortKey, 'sortKey', 'The sort key');
    if (definition.sortKey.name === definition.partitionKey.name && definition.sortKey.name !== '')
      add('sortKey.name', 'The sort key must be a different attribute from the partition key.');
  }
  const isProvisioned = definition.billingMode === 'PROVISIONED';
  if (isProvisioned) {
    add('readCapacity', capacityProblem(definition.readCapacity, 'Read capacity'));
    add('writeCapacity', capacityProblem(definition.writeCapacity, 'Write capacity'));
  }

  const indexNames = new Set<string>();
  const indexName = (name: string, field: string): void => {
    const problem = tableNameProblem(name, 'An index name');
    if (problem) {
      add(field, problem);
      return;
    }
    if (indexNames.has(name)) {
      add(field, `Another index is already named "${name}".`);
      return;
    }
    indexNames.add(name);
  };
  let projected = 0;
  const projection = (p: ProjectionDefinition, field: string): void => {
    if (p.type !== 'INCLUDE') return;
    const attributes = p.attributes ?? [];
    if (attributes.length === 0) {
      add(field, 'INCLUDE needs at least one attribute; choose KEYS_ONLY to project none.');
      return;
    }
    projected += new Set(attributes).size;
    if (attributes.some((a) => a.length === 0)) add(field, 'An included attribute name is empty.');
  };

  if (definition.globalIndexes.length > LIMITS.globalIndexes)
    add('globalIndexes', `A table can have at most ${LIMITS.globalIndexes} global secondary indexes.`);
  definition.globalIndexes.forEach((gsi, i) => {
    const at = `globalIndexes.${i}`;
    indexName(gsi.name, `${at}.name`);
    problems.push(...indexKeyProblems(gsi, at, types));
    projection(gsi.projection, `${at}.projection`);
    if (isProvisioned) {
      add(`${at}.readCapacity`, capacityProblem(gsi.readCapacity, "The index's read capacity"));
      add(`${at}.writeCapacity`, capacityProblem(gsi.writeCapacity, "The index's write capacity"));
    }
  });

  if (definition.localIndexes.length > 0 && !definition.sortKey)
    add('localIndexes', 'A local index needs a table with a sort key: it sorts by another attribute.');
  if (definition.localIndexes.length > LIMITS.localIndexes)
    add('localIndexes', `A table can have at most ${LIMITS.localIndexes} local secondary indexes.`);
  definition.localIndexes.forEach((lsi, i) => {
    const at = `localIndexes.${i}`;
    indexName(lsi.name, `${at}.name`);
    key(lsi.sortKey, `${at}.sortKey`, "The local index's sort key");
    if (lsi.sortKey.name === definition.partitionKey.name && lsi.sortKey.name !== '')
      add(`${at}.sortKey.name`, "A local index's sort key must differ from the table's partition key.");
    projection(lsi.projection, `${at}.projection`);
  });
  if (projected > LIMITS.projectedAttributes)
    add(
      'globalIndexes',
      `The indexes project ${projected} attributes with INCLUDE; DynamoDB allows ${LIMITS.projectedAttributes} in all.`,
    );

  if (definition.ttlAttribute !== undefined && definition.ttlAttribute.trim() !== '')
    add('ttlAttribute', attributeNameProblem(definition.ttlAttribute.trim(), 'The TTL attribute'));

  if (definition.tags.length > LIMITS.tags) add('tags', `A table can have at most ${LIMITS.tags} tags.`);
  const tagKeys = new Set<string>();
  definition.tags.forEach((tag, i) => add(`tags.${i}`, tagProblem(tag.key, tag.value, tagKeys)));
  return problems;
}

export function tagProblem(key: string, value: string, seen: Set<string>): string | undefined {
  if (key.length === 0) return 'A tag needs a key.';
  if (key.length > 128) return 'A tag key may be at most 128 characters.';
  if (value.length > 256) return 'A tag value may be at most 256 characters.';
  if (key.toLowerCase().startsWith('aws:')) return 'Tag keys starting with "aws:" are reserved for AWS.';
  if (seen.has(key)) return `The tag "${key}" is given twice.`;
  seen.add(key);
  return undefined;
}

/** The first problem at a field or under it (`globalIndexes.0` covers `globalIndexes.0.name`). */
export function problemAt(problems: FieldProblem[], field: string): string | undefined {
  return problems.find((p) => p.field === field || p.field.startsWith(`${field}.`))?.message;
}
