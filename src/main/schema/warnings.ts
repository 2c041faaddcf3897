import type { KeySchema } from '../../shared/ipc/tables';
import type { AttributeSchema, EntitySchema, SchemaWarning } from '../../shared/ipc/schema';
import { MAX_ITEM_BYTES } from '../../shared/dynamo/item-size';
import type { GroupState } from './accumulator';
import { quoteName } from '../../shared/schema/schema-paths';

const n = (v: number) => v.toLocaleString('en-US');

function typeCounts(a: AttributeSchema): string {
  return Object.entries(a.types)
    .sort((x, y) => y[1] - x[1])
    .map(([type, count]) => `${type} ${n(count)}`)
    .join(', ');
}

/** What a DynamoDB user would want to know before trusting one column per path. */
export function schemaWarnings(input: {
  attributes: AttributeSchema[];
  entities: EntitySchema[];
  all: GroupState;
  keys: KeySchema;
  /** Table and index key attribute names. */
  keyNames: readonly string[];
}): SchemaWarning[] {
  const warnings: SchemaWarning[] = [];
  const keyPaths = new Set(input.keyNames.map(quoteName));
  for (const a of input.attributes) {
    const types = Object.keys(a.types);
    const iso = (a.formats.isoDateTime ?? 0) + (a.formats.isoDate ?? 0);
    const epoch = (a.number?.epochSeconds ?? 0) + (a.number?.epochMillis ?? 0) + (a.formats.epochString ?? 0);
    if (iso > 0 && epoch > 0) {
      // Said once: the ISO/epoch mix is also why the path has two types.
      warnings.push({
        kind: 'isoAndEpoch',
        path: a.path,
        detail: `Dates stored two ways: ${n(iso)} ISO strings next to ${n(epoch)} epoch values (${typeCounts(a)}); code reading one breaks on the other, and Athena cannot map it to one column.`,
      });
    } else if (keyPaths.has(a.path) && types.length > 1) {
      warnings.push({
        kind: 'keyShape',
        path: a.path,
        detail: `Key attribute ${a.path} holds several types (${typeCounts(a)}); an index keeps only the items whose value has the type it was defined with.`,
      });
    } else if (types.length > 1) {
      warnings.push({
        kind: 'mixedTypes',
        path: a.path,
        detail: `Holds several types (${typeCounts(a)} values): Athena's Ion and JSON readers (and most schemas) cannot map it to one column.`,
      });
    }
    if (
      a.path.startsWith('"') &&
      !a.path.includes('[]') &&
      a.path.slice(1, -1).includes('.') &&
      a.path.endsWith('"')
    ) {
      warnings.push({
        kind: 'dottedName',
        path: a.path,
        detail: `A top-level attribute whose name contains a dot (${n(a.items)} items): dynamoose 4.x writes nested updates this way, and other tools read it as a nested path. The migration pre-flight can move it.`,
      });
    }
  }
  if (input.all.nearLimit > 0) {
    warnings.push({
      kind: 'nearItemLimit',
      path: '',
      detail: `${n(input.all.nearLimit)} items are over 300 KB (the largest about ${Math.round(input.all.maxItemBytes / 1024)} KB of DynamoDB's ${MAX_ITEM_BYTES / 1024} KB limit): a write that adds to them may be refused.`,
    });
  }
  for (const e of input.entities) {
    if (e.keyPatterns.length > 1) {
      warnings.push({
        kind: 'keyShape',
        path: quoteName(input.keys.partitionKey.name),
        entity: e.name,
        detail: `${e.name}: its keys have ${e.keyPatterns.length} shapes (${e.keyPatterns
          .slice(0, 3)
          .map((p) => `${p.pattern} ×${n(p.count)}`)
          .join('; ')}).`,
      });
    }
  }
  return warnings;
}
