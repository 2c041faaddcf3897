import type { EntitySchema, SchemaReport } from '../../../../shared/ipc';
import { type KeyParts, partitionAttributes, sortAttributes } from '../../../../shared/dynamo/key-model';
import { keyPatternShapes } from '../../../../shared/schema/key-pattern';

/**
 * How one entity reaches another, read from what the scan saw (never from values it did not
 * keep): a key whose prefix is another entity's key prefix, an index key that lands in another
 * item collection, or a top-level attribute named after another entity (`userId`).
 */
export interface DesignRelation {
  from: string;
  /** An entity's name, or a whole item collection (its partition key shape, `PK=USER#…`). */
  to: { entity: string } | { collection: string };
  kind: 'key' | 'index' | 'attribute';
  /** Short, for the line: `PK ORDER#… = SK`, `GSI1 USER#…`, `userId`. */
  label: string;
  /** A sentence, for the list beside the picture. */
  sentence: string;
}

interface KeyShapes {
  pk?: string;
  sk?: string;
}

/**
 * `PK=USER#… SK=ORDER#…` → the two shapes, by the key names (an attribute name may hold a space).
 * For a multi-attribute index key, its first partition and first sort attribute: the prefix a
 * relation follows sits in those.
 */
export function keyShapesOf(pattern: string, keys: KeyParts): KeyShapes {
  const partition = partitionAttributes(keys).map((a) => a.name);
  const sort = sortAttributes(keys).map((a) => a.name);
  const shapes = keyPatternShapes(pattern, [...partition, ...sort]);
  const pk = shapes[0];
  const sk = sort.length > 0 ? shapes[partition.length] : undefined;
  return { ...(pk !== undefined ? { pk } : {}), ...(sk !== undefined ? { sk } : {}) };
}

/** The word before `#`/`:` of a key shape (`USER#…` → USER); undefined for a constant or a type. */
export function prefixWord(shape: string | undefined): string | undefined {
  return shape ? /^([A-Za-z][A-Za-z0-9_-]*)[#|:]…$/.exec(shape)?.[1] : undefined;
}

/** The collection key the diagram groups by: the partition key part of the entity's key pattern. */
export const collectionKeyOf = (e: EntitySchema): string => e.keyPattern.split(' ')[0] ?? '';

const singular = (name: string): string =>
  name
    .toLowerCase()
    .replace(/ies$/, 'y')
    .replace(/(ss|x|ch|sh)es$/, '$1')
    .replace(/s$/, '');

/** `userId`, `user_id`, `UserID` → user; anything else undefined. */
function referencedWord(attribute: string): string | undefined {
  const m = /^([A-Za-z][A-Za-z0-9]*?)[_-]?(?:Id|ID|id)$/.exec(attribute);
  return m && m[1] ? m[1].toLowerCase() : undefined;
}

/** Relations between the report's entities, one per (from, to) pair with its reasons joined. */
export function designRelations(report: SchemaReport): DesignRelation[] {
  const pkName = report.keys.partitionKey.name;
  const skName = report.keys.sortKey?.name;
  const shapes = new Map(report.entities.map((e) => [e.name, keyShapesOf(e.keyPattern, report.keys)]));
  const out = new Map<string, DesignRelation>();
  const add = (r: DesignRelation) => {
    const key = `${r.from}\u0000${'entity' in r.to ? `e:${r.to.entity}` : `c:${r.to.collection}`}`;
    const seen = out.get(key);
    if (!seen) out.set(key, r);
    else if (!seen.label.split(', ').includes(r.label))
      out.set(key, {
        ...seen,
        label: `${seen.label}, ${r.label}`,
        sentence: `${seen.sentence} ${r.sentence}`,
      });
  };
  const byPkWord = (word: string, except: string) =>
    report.entities.filter((e) => e.name !== except && prefixWord(shapes.get(e.name)?.pk) === word);

  for (const a of report.entities) {
    const mine = shapes.get(a.name) ?? {};
    const myPkWord = prefixWord(mine.pk);
    // Key: my partition key is another entity's sort key (payments under ORDER#… ↔ orders' SK ORDER#…).
    if (myPkWord && skName)
      for (const b of report.entities)
        if (b.name !== a.name && prefixWord(shapes.get(b.name)?.sk) === myPkWord)
          add({
            from: a.name,
            to: { entity: b.name },
            kind: 'key',
            label: `${pkName} ${myPkWord}#… = ${skName}`,
            sentence: `${a.name} live under their ${singular(b.name)}: their ${pkName} ${myPkWord}#… is the ${skName} of ${b.name}.`,
          });
    // Index: my items' index partition key is another collection's partition key.
    const indexes = new Map((report.indexes ?? []).map((i) => [i.name, i.keys]));
    for (const p of a.indexPatterns ?? []) {
      const keys = indexes.get(p.index);
      if (!keys) continue;
      const word = prefixWord(keyShapesOf(p.pattern, keys).pk);
      if (!word || word === myPkWord) continue;
      const targets = byPkWord(word, a.name);
      if (targets.length === 0) continue;
      const collection = collectionKeyOf(targets[0] as EntitySchema);
      add({
        from: a.name,
        to: { collection },
        kind: 'index',
        label: `${p.index} ${word}#…`,
        sentence: `${p.index} finds ${a.name} by ${keys.partitionKey.name} ${word}#…, the partition of the ${collection} collection.`,
      });
    }
    // Attribute: a top-level `<word>Id` naming another entity or another collection's prefix.
    for (const attribute of a.attributes) {
      if (attribute.path.includes('.') || attribute.path.includes('[') || attribute.path.startsWith('"'))
        continue;
      const word = referencedWord(attribute.path);
      if (!word || word === singular(a.name) || word === myPkWord?.toLowerCase()) continue;
      const target =
        report.entities.find((e) => e.name !== a.name && singular(e.name) === word) ??
        report.entities.find(
          (e) => e.name !== a.name && prefixWord(shapes.get(e.name)?.sk)?.toLowerCase() === word,
        );
      if (!target) continue;
      add({
        from: a.name,
        to: { entity: target.name },
        kind: 'attribute',
        label: attribute.path,
        sentence: `${a.name}.${attribute.path} looks like a reference to ${target.name}.`,
      });
    }
  }
  return [...out.values()];
}
