import type { AttributeSchema, EntitySchema, SchemaReport } from '../ipc/schema';
import type { KeySchema } from '../ipc/tables';
import {
  indexKeyRoles,
  isMultiAttribute,
  keyText,
  partitionAttributes,
  roleText,
  sortAttributes,
} from '../dynamo/key-model';
import { literalKey, type Node, treeOf, typeCountsComment, typeName, valueOf } from './model-gen';
import { isTimeName } from './time-names';

/**
 * A model for dynotable-orm, the dynamoose replacement of shared/reference/003 (issue 15 item 2):
 * `model('Name', z.object({...}))` with the keys marked on their fields (`hashKey(...)` from
 * 'dynotable-orm/zod', as the article shows; `rangeKey` for the sort key) and Dates stored as the
 * data holds them: `defaultDateStorage: 'iso'` where the dates are ISO strings, since the ORM
 * (like dynamoose) writes epoch milliseconds otherwise. One model per entity of the read.
 */

type DateStorage = 'iso' | 'epochMillis' | 'epochSeconds';

interface DateUse {
  iso: number;
  millis: number;
  seconds: number;
}

/**
 * A Date attribute: at least 90% of its string and number values read as a point in time. Epoch
 * numbers count only under a time-named attribute, as in the pre-flight that reads this model.
 */
function dateUse(name: string, a: AttributeSchema | undefined): DateUse | undefined {
  if (!a) return undefined;
  const types = Object.keys(a.types);
  if (types.some((t) => t !== 'S' && t !== 'N')) return undefined;
  const iso = (a.formats.isoDateTime ?? 0) + (a.formats.isoDate ?? 0);
  const timeNamed = isTimeName(name);
  const millis = timeNamed ? (a.number?.epochMillis ?? 0) : 0;
  const seconds = timeNamed ? (a.number?.epochSeconds ?? 0) : 0;
  const values = (a.types.S ?? 0) + (a.types.N ?? 0);
  return values > 0 && (iso + millis + seconds) / values >= 0.9 ? { iso, millis, seconds } : undefined;
}

function storageOf(use: DateUse): DateStorage {
  if (use.iso >= use.millis && use.iso >= use.seconds) return 'iso';
  return use.millis >= use.seconds ? 'epochMillis' : 'epochSeconds';
}

const STORAGE_WORDS: Record<DateStorage, string> = {
  iso: 'ISO strings',
  epochMillis: 'epoch milliseconds',
  epochSeconds: 'epoch seconds',
};

function storageText(use: DateUse): string {
  return (
    [
      ['iso', use.iso],
      ['epochMillis', use.millis],
      ['epochSeconds', use.seconds],
    ] as [DateStorage, number][]
  )
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `${STORAGE_WORDS[s]} ${n}`)
    .join(', ');
}

/** `PK=USER#… SK=ORDER#…` → the key's template for one attribute: `USER#…`. */
function keyTemplate(pattern: string, name: string): string | undefined {
  for (const part of pattern.split(' ')) if (part.startsWith(`${name}=`)) return part.slice(name.length + 1);
  return undefined;
}

interface ModelPart {
  name: string;
  items: number;
  keyPattern?: string;
  indexPatterns?: EntitySchema['indexPatterns'];
  attributes: AttributeSchema[];
}

/**
 * An index's key in the model's header, every attribute in KeySchema order: `tenant / day` or,
 * for a multi-attribute key, `partition tenant + region, sort day + seq`.
 */
function indexKeyText(keys: KeySchema): string {
  if (!isMultiAttribute(keys)) return keyText(keys);
  const names = (attributes: { name: string }[]) => attributes.map((a) => a.name).join(' + ');
  const sort = sortAttributes(keys);
  return `partition ${names(partitionAttributes(keys))}${sort.length > 0 ? `, sort ${names(sort)}` : ''} (multi-attribute key: a Query names every partition attribute with =, sort attributes left to right)`;
}

function modelText(part: ModelPart, keys: KeySchema, report: SchemaReport): { text: string; iso: boolean } {
  const root: Node = treeOf(part.attributes);
  const byPath = new Map(part.attributes.map((a) => [a.path, a]));
  const uses = new Map<string, DateUse>();
  for (const [name, child] of root.children) {
    const use = dateUse(name, child.attribute);
    if (use && name !== keys.partitionKey.name && name !== keys.sortKey?.name) uses.set(name, use);
  }
  const storages = [...uses.values()].map(storageOf);
  const iso = storages.filter((s) => s === 'iso').length;
  const defaultIso = storages.length > 0 && iso * 2 > storages.length;
  const lines: string[] = [];
  const indexes = (report.indexes ?? []).filter(
    (i) => !part.indexPatterns || part.indexPatterns.some((p) => p.index === i.name),
  );
  const roles = indexKeyRoles(indexes);
  const isMultiAttributeIndex = new Set(indexes.filter((i) => isMultiAttribute(i.keys)).map((i) => i.name));
  const entries = [...root.children].sort((a, b) => {
    const rank = (n: string) => (n === keys.partitionKey.name ? 0 : n === keys.sortKey?.name ? 1 : 2);
    return rank(a[0]) - rank(b[0]) || (a[0] < b[0] ? -1 : 1);
  });
  for (const [name, child] of entries) {
    const a = child.attribute ?? byPath.get(name);
    const optional = (a?.values ?? 0) < part.items;
    const prop = literalKey(name);
    const use = uses.get(name);
    const comments: string[] = [];
    let value = valueOf(child, 'zod', '    ') as string;
    if (name === keys.partitionKey.name || name === keys.sortKey?.name) {
      const template = part.keyPattern ? keyTemplate(part.keyPattern, name) : undefined;
      value = `${name === keys.partitionKey.name ? 'hashKey' : 'rangeKey'}(${value})`;
      if (template) comments.push(`key template ${template}`);
    } else if (use) {
      value = 'z.date()';
      const storage = storageOf(use);
      comments.push(`stored as ${storageText(use)}`);
      if ((storage === 'iso') !== defaultIso || storageText(use).includes(','))
        comments.push(`not the model's date storage: check before writing`);
    } else if (a && Object.keys(a.types).length > 1) comments.push(`several types: ${typeCountsComment(a)}`);
    // Every attribute of a multi-attribute index key, with its place: a Query names them in order.
    for (const role of roles.get(name) ?? [])
      if (isMultiAttributeIndex.has(role.index)) comments.push(roleText(role));
    for (const p of part.indexPatterns ?? []) {
      const template = keyTemplate(p.pattern, name);
      if (template && name !== keys.partitionKey.name && name !== keys.sortKey?.name)
        comments.push(`${p.index} key, template ${template}`);
    }
    if (optional && a) comments.push(`in ${a.items} of ${part.items} items`);
    lines.push(
      `    ${prop}: ${value}${optional ? '.optional()' : ''},${comments.length > 0 ? ` // ${[...new Set(comments)].join('; ')}` : ''}`,
    );
  }
  const model = typeName(part.name);
  const header = [
    `// ${part.name}: ${part.items} items${part.keyPattern ? `, keys ${part.keyPattern}` : ''}.`,
    ...indexes.map(
      (i) =>
        `// ${i.kind} ${i.name}: ${indexKeyText(i.keys)}${
          part.indexPatterns
            ?.filter((p) => p.index === i.name)
            .map((p) => ` (${p.pattern}, ${p.count} items)`)
            .join('') ?? ''
        }`,
    ),
  ];
  const options = defaultIso ? `,\n  {defaultDateStorage: 'iso'}` : '';
  return {
    text: `${header.join('\n')}\nexport const ${model} = model(\n  '${model}',\n  z.object({\n${lines.join('\n')}\n  })${options}\n);\n`,
    iso: defaultIso,
  };
}

/** The dynotable-orm model(s) of the read: one per entity, or the one entity asked for. */
export function generateOrmModel(report: SchemaReport, entity: string | undefined, source: string): string {
  const keys = report.keys;
  const parts: ModelPart[] = entity
    ? report.entities.filter((e) => e.name === entity)
    : report.entities.length > 0
      ? report.entities
      : [{ name: report.table, items: report.itemsScanned, attributes: report.attributes }];
  if (parts.length === 0) throw new Error(`No entity named ${entity ?? ''}.`);
  const models = parts.map((p) => modelText(p, keys, report).text);
  const uses = models.some((m) => m.includes('rangeKey(')) ? 'hashKey, rangeKey' : 'hashKey';
  return [
    `// Generated by DynoTable from ${source}: dynotable-orm models, one per entity.`,
    `// Optional: attributes some items lack. Dates: z.date() where 90% of the values are ISO strings, or epoch numbers under a time-named attribute.`,
    `import {model} from 'dynotable-orm';`,
    `import {${uses}} from 'dynotable-orm/zod';`,
    `import {z} from 'zod';`,
    '',
    models.join('\n'),
  ].join('\n');
}
