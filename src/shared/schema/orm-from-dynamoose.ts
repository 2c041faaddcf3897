import type { DynamooseAttribute, DynamooseModel } from '../ipc/migration-dynamoose';
import { typeName } from './model-gen';

/**
 * The dynotable-orm model that reads what a dynamoose schema file's models stored (issue 29 item
 * 2): fields under their stored names (an `alias`/`map` is the code's name, not the table's), the
 * timestamps under their names and storage, the `expires` attribute as a Date in epoch seconds
 * (DynamoDB's TTL), each Date in the storage dynamoose used for it, a `Set` as a set and an array
 * as a list, and a Combine as a plain string with a note that code must now compute it. Keys are
 * marked on their fields and a Date's storage where it differs from the model's
 * `defaultDateStorage`, as the reference article's Zod adapter carries both on the field.
 * The same text the pre-flight's `--model` reads back (main/migration/orm-expectations.ts).
 */

type OrmStorage = 'iso' | 'epochMillis' | 'epochSeconds';
const ORM_STORAGE: Record<'iso' | 'millis' | 'seconds', OrmStorage> = {
  iso: 'iso',
  millis: 'epochMillis',
  seconds: 'epochSeconds',
};

const STORAGE_WORDS: Record<OrmStorage, string> = {
  iso: 'ISO strings',
  epochMillis: 'epoch milliseconds',
  epochSeconds: 'epoch seconds',
};

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const prop = (name: string) => (IDENT.test(name) ? name : JSON.stringify(name));

const SCALARS: Record<string, string> = {
  String: 'z.string()',
  Number: 'z.number()',
  Boolean: 'z.boolean()',
  Buffer: 'z.instanceof(Uint8Array)',
  Combine: 'z.string()',
};

function elementOf(name: string | undefined): string {
  if (name === undefined) return 'z.unknown()';
  if (name === 'Date') return 'z.date()';
  return SCALARS[name] ?? (name === 'Object' ? 'z.record(z.string(), z.unknown())' : 'z.unknown()');
}

function literalOf(constant: string | undefined): string {
  if (constant === undefined) return 'z.unknown()';
  return /^(?:-?\d+(?:\.\d+)?|true|false|null)$/.test(constant)
    ? `z.literal(${constant})`
    : `z.literal(${JSON.stringify(constant)})`;
}

interface Field {
  name: string;
  value: string;
  isOptional: boolean;
  comments: string[];
}

/** A Date field in the model's default storage, or marked with its own. */
function dateValue(storage: OrmStorage, modelDefault: OrmStorage): string {
  return storage === modelDefault ? 'z.date()' : `dateStorage(z.date(), '${storage}')`;
}

function valueOf(a: DynamooseAttribute, modelDefault: OrmStorage, indent: string): string {
  switch (a.type) {
    case 'Date':
      return dateValue(ORM_STORAGE[a.dateStorage ?? 'millis'], modelDefault);
    case 'Object': {
      if (!a.children || a.children.length === 0) return 'z.record(z.string(), z.unknown())';
      const inner = `${indent}  `;
      const lines = a.children.map((c) => fieldLine(fieldOf(c, modelDefault, inner), inner));
      return `z.object({\n${lines.join('\n')}\n${indent}})`;
    }
    case 'Array':
      return `z.array(${elementOf(a.element)})`;
    case 'Set':
      return `z.set(${elementOf(a.element ?? 'String')})`;
    case 'Constant':
      return literalOf(a.constant);
    default:
      return SCALARS[a.type] ?? 'z.unknown()';
  }
}

function fieldOf(a: DynamooseAttribute, modelDefault: OrmStorage, indent: string): Field {
  const comments: string[] = [];
  let value = valueOf(a, modelDefault, indent);
  if (a.key) {
    value = `${a.key === 'hash' ? 'hashKey' : 'rangeKey'}(${value})`;
    if (a.type === 'Date')
      comments.push(
        `a Date key, stored as ${STORAGE_WORDS[ORM_STORAGE[a.dateStorage ?? 'millis']]}: its type cannot change in place`,
      );
  }
  if (a.aliases.length > 0)
    comments.push(`dynamoose alias ${a.aliases.join(', ')}: the table stores it as "${a.name}"`);
  if (a.hasGet || a.hasSet)
    comments.push(
      `dynamoose ${[a.hasGet ? 'get' : '', a.hasSet ? 'set' : ''].filter(Boolean).join('/')} transform: apply it in code`,
    );
  if (a.combine)
    comments.push(
      `Combine of ${a.combine.attributes.join(', ')} joined by ${JSON.stringify(a.combine.separator)}: derived, compute it in code on every write that touches a source`,
    );
  if (a.arrayShorthand)
    comments.push('written [Type]: a set (SS/NS) under dynamoose 0.x and 1.x, a list from 2.x on');
  return { name: a.name, value, isOptional: !a.required && a.key === undefined, comments };
}

function fieldLine(f: Field, indent: string): string {
  const comment = f.comments.length > 0 ? ` // ${f.comments.join('; ')}` : '';
  return `${indent}${prop(f.name)}: ${f.value}${f.isOptional ? '.optional()' : ''},${comment}`;
}

/** Every Date of the model with its storage: declared ones, the timestamps and the TTL. */
function datesOf(model: DynamooseModel): OrmStorage[] {
  const walk = (list: readonly DynamooseAttribute[]): OrmStorage[] =>
    list.flatMap((a) => [
      ...(a.type === 'Date' && !a.key ? [ORM_STORAGE[a.dateStorage ?? 'millis']] : []),
      ...walk(a.children ?? []),
    ]);
  const t = model.settings.timestamps;
  const stamps = t
    ? [
        ...(t.createdAt ? [ORM_STORAGE[t.createdAtStorage ?? 'millis']] : []),
        ...(t.updatedAt ? [ORM_STORAGE[t.updatedAtStorage ?? 'millis']] : []),
      ]
    : [];
  return [...walk(model.attributes), ...stamps];
}

/** The storage most of the model's Dates use; epoch ms (the ORM's default) on a tie or with none. */
function defaultOf(model: DynamooseModel): OrmStorage {
  const counts = new Map<OrmStorage, number>();
  for (const s of datesOf(model)) counts.set(s, (counts.get(s) ?? 0) + 1);
  let best: OrmStorage = 'epochMillis';
  for (const [storage, n] of counts) if (n > (counts.get(best) ?? 0)) best = storage;
  return best;
}

function modelText(model: DynamooseModel): string {
  const storage = defaultOf(model);
  const declared = new Set(model.attributes.map((a) => a.name));
  const fields = model.attributes.map((a) => fieldOf(a, storage, '    '));
  const { timestamps, expires, saveUnknown } = model.settings;
  for (const which of ['createdAt', 'updatedAt'] as const) {
    const name = timestamps?.[which];
    if (!name || declared.has(name)) continue;
    fields.push({
      name,
      value: dateValue(ORM_STORAGE[timestamps[`${which}Storage`] ?? 'millis'], storage),
      isOptional: true,
      comments: [`dynamoose timestamps: ${which}`],
    });
  }
  if (expires) {
    const comment = `dynamoose expires: DynamoDB's TTL in epoch seconds; dynamoose ${expires.returnExpired === true ? 'returned' : 'hid'} expired items on read, so filter on it`;
    const at = fields.findIndex((f) => f.name === expires.attribute);
    const ttl: Field = {
      name: expires.attribute,
      value: dateValue('epochSeconds', storage),
      isOptional: true,
      comments: [comment],
    };
    if (at >= 0) fields[at] = ttl;
    else fields.push(ttl);
  }
  const options: string[] = [];
  if (storage !== 'epochMillis') options.push(`defaultDateStorage: '${storage}'`);
  if (timestamps && (timestamps.createdAt || timestamps.updatedAt))
    options.push(
      `timestamps: {${[
        timestamps.createdAt ? `createdAt: '${timestamps.createdAt}'` : '',
        timestamps.updatedAt ? `updatedAt: '${timestamps.updatedAt}'` : '',
      ]
        .filter(Boolean)
        .join(', ')}}`,
    );
  const header = [`// ${model.name}: from the dynamoose model ${JSON.stringify(model.name)}.`];
  if (saveUnknown)
    header.push(
      `// saveUnknown${Array.isArray(saveUnknown) ? ` (${saveUnknown.join(', ')})` : ''}: undeclared names are kept (looseObject), or a whole-item write drops them.`,
    );
  for (const part of model.unread) header.push(`// Not read (not a literal in the file): ${part}.`);
  const object = saveUnknown ? 'z.looseObject' : 'z.object';
  const ident = typeName(model.name);
  return `${header.join('\n')}\nexport const ${ident} = model(\n  '${model.name}',\n  ${object}({\n${fields
    .map((f) => fieldLine(f, '    '))
    .join('\n')}\n  })${options.length > 0 ? `,\n  {${options.join(', ')}}` : ''}\n);\n`;
}

/** The dynotable-orm models of a dynamoose schema file, one per dynamoose model. */
export function ormModelOfDynamoose(models: readonly DynamooseModel[], source: string): string {
  const texts = models.map(modelText);
  const helpers = ['dateStorage', 'hashKey', 'rangeKey'].filter((h) =>
    texts.some((t) => t.includes(`${h}(`)),
  );
  return [
    `// Generated by DynoTable from the dynamoose schema file ${source.split(/[\\/]/).pop() ?? source}: dynotable-orm models that read what it stored.`,
    `import {model} from 'dynotable-orm';`,
    ...(helpers.length > 0 ? [`import {${helpers.join(', ')}} from 'dynotable-orm/zod';`] : []),
    `import {z} from 'zod';`,
    '',
    texts.join('\n'),
  ].join('\n');
}
