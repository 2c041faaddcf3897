import { ownValue } from '../../shared/dynamo/proto-keys';
import type {
  Conformance,
  DynamooseAttribute,
  DynamooseModel,
  DynamooseNote,
  DynamooseReview,
} from '../../shared/ipc/migration-dynamoose';
import { ormModelOfDynamoose } from '../../shared/schema/orm-from-dynamoose';
import { accepts, type DateKinds, declaredOf, type DeclaredState } from './declared-checks';
import { toPlainKey } from './samples';

/**
 * The pre-flight's reading of a dynamoose schema file: the settings that change what the stored
 * data means (each with what the dynotable-orm model must say to read the same data), how the
 * items conform to what the file declares, and the behaviours of dynamoose the new ORM does not
 * have (its migration guide's list, as far as this schema uses them).
 */
export function dynamooseReview(
  file: string,
  models: readonly DynamooseModel[],
  declared: DeclaredState | undefined,
): DynamooseReview {
  return {
    file,
    models: [...models],
    notes: models.flatMap(notesOf),
    conformance: conformanceOf(models, declared),
    behaviours: behavioursOf(models),
    ormModel: ormModelOfDynamoose(models, file),
  };
}

const STORAGE_WORDS = { iso: 'ISO strings', millis: 'epoch milliseconds', seconds: 'epoch seconds' } as const;
const ORM_STORAGE = { iso: 'iso', millis: 'epochMillis', seconds: 'epochSeconds' } as const;

function walk(attributes: readonly DynamooseAttribute[]): DynamooseAttribute[] {
  return attributes.flatMap((a) => [a, ...walk(a.children ?? [])]);
}

function notesOf(model: DynamooseModel): DynamooseNote[] {
  const notes: DynamooseNote[] = [];
  const note = (path: string, setting: string, meaning: string, ormSays: string) =>
    notes.push({ model: model.name, path, setting, meaning, ormSays });
  for (const a of walk(model.attributes)) {
    if (a.aliases.length > 0)
      note(
        a.path,
        'alias/map',
        `The code knows this attribute as ${a.aliases.map((n) => `"${n}"`).join(', ')} while DynamoDB stores it as "${a.name}".`,
        `Declare the field under the stored name "${a.name}"; the code's other names are not in the table.`,
      );
    if (a.hasGet || a.hasSet)
      note(
        a.path,
        [a.hasGet ? 'get' : '', a.hasSet ? 'set' : ''].filter(Boolean).join('/'),
        'A transform changes the value between the code and the table, so what is stored is not what the code saw.',
        'Apply the same transform in code (or a schema transform) around reads and writes; dynotable-orm stores what it is given.',
      );
    if (a.combine)
      note(
        a.path,
        'Combine',
        `Derived: the sources ${a.combine.attributes.join(', ')} joined by ${JSON.stringify(a.combine.separator)}, recomputed by dynamoose on save.`,
        'Keep the field a plain string and compute it in code on every write that touches a source; the staleCombine finding lists items where it is already stale.',
      );
    if (a.type === 'Constant')
      note(
        a.path,
        'Constant',
        `Always ${a.constant ?? 'one value'}; dynamoose refused any other.`,
        `Declare it as a literal (z.literal(${a.constant ?? '…'})).`,
      );
    if (a.type === 'Date' && a.dateStorage && a.dateStorage !== 'millis')
      note(
        a.path,
        'storage',
        `Stored as ${STORAGE_WORDS[a.dateStorage]}, not dynamoose's default epoch milliseconds.`,
        `Set defaultDateStorage: '${ORM_STORAGE[a.dateStorage]}' on the model (or store this field so), or new writes put numbers next to the old values.`,
      );
    if (a.arrayShorthand)
      note(
        a.path,
        '[Type] shorthand',
        'Saved as a set (SS/NS) by dynamoose 0.x and 1.x and as a list (L) from 2.x on.',
        'Declare the form the data holds (a set or z.array()); the setListMix finding says whether both are stored.',
      );
  }
  const s = model.settings;
  if (s.timestamps) {
    const t = s.timestamps;
    const stamps = [
      t.createdAt ? `${t.createdAt} (${STORAGE_WORDS[t.createdAtStorage ?? 'millis']})` : '',
      t.updatedAt ? `${t.updatedAt} (${STORAGE_WORDS[t.updatedAtStorage ?? 'millis']})` : '',
    ].filter(Boolean);
    note(
      '',
      'timestamps',
      `dynamoose wrote ${stamps.join(' and ')} on every save.`,
      `Declare ${[t.createdAt, t.updatedAt].filter(Boolean).join(' and ')} with the model's timestamps option under the same names, stored the same way.`,
    );
  }
  if (s.saveUnknown)
    note(
      '',
      'saveUnknown',
      `Attributes the schema does not declare were saved too${Array.isArray(s.saveUnknown) ? ` (${s.saveUnknown.join(', ')})` : ''}, including names with dots inside maps (#1589).`,
      'Let the model keep unknown keys (passthrough), or they are dropped from an item the next time it is written whole.',
    );
  if (s.expires)
    note(
      s.expires.attribute,
      'expires',
      `TTL in "${s.expires.attribute}" as epoch seconds, set on each save; reads ${s.expires.returnExpired === true ? 'returned' : 'hid'} items past it that DynamoDB had not deleted yet.`,
      `Declare "${s.expires.attribute}" as a Date in epoch seconds and filter reads on it, or expired items show until DynamoDB deletes them (up to days later).`,
    );
  if (s.useNativeBooleans === false)
    note(
      '',
      'useNativeBooleans: false',
      'Booleans were stored as the strings "true" and "false".',
      'Convert them to BOOL first (fix-migration --bool-path) or declare the fields as strings.',
    );
  if (s.useDocumentTypes === false)
    note(
      '',
      'useDocumentTypes: false',
      'Maps and lists were stored as JSON text in string attributes.',
      'Convert the text to maps and lists first, or declare the fields as strings and parse them in code.',
    );
  return notes;
}

const TYPE_WORDS: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  S: 'a string',
  N: 'a number',
  B: 'binary',
  BOOL: 'a boolean',
  NULL: 'NULL',
  M: 'a map',
  L: 'a list',
  SS: 'a string set',
  NS: 'a number set',
  BS: 'a binary set',
});

function conformanceOf(
  models: readonly DynamooseModel[],
  declared: DeclaredState | undefined,
): Conformance[] {
  if (!declared) return [];
  const rows: Conformance[] = [];
  for (const model of declaredOf(models)) {
    const items = ownValue(declared.items, model.name) ?? 0;
    if (items === 0) continue;
    for (const a of model.attributes) {
      const cell = ownValue(declared.cells, `${model.name}\u0000${a.name}`);
      const present = cell?.present ?? 0;
      const stored = Object.assign(Object.create(null) as Record<string, number>, cell?.types ?? {});
      const mismatched = cell?.mismatched ?? 0;
      const problems: string[] = [];
      if (mismatched > 0) {
        const wrong = Object.keys(stored)
          .filter((tag) => !accepts(a, tag))
          .map((tag) => TYPE_WORDS[tag] ?? tag);
        problems.push(
          `${mismatched} of ${present} items store ${wrong.join(' or ')} where the model declares ${a.type}${a.type === 'Date' ? ` (${a.dateStorage ?? 'millis'})` : ''}`,
        );
      }
      const storage = cell?.dates ? storageProblem(a.dateStorage, cell.dates) : undefined;
      if (storage) problems.push(storage);
      if (a.required && present < items)
        problems.push(`${items - present} of ${items} items lack it though the model requires it`);
      rows.push({
        model: model.name,
        path: a.name,
        declared: a.type,
        required: a.required,
        items,
        present,
        stored,
        mismatched,
        sampleKeys: (cell?.samples ?? []).map((s) => toPlainKey(s.key)),
        ...(cell?.dates ? { dates: { ...cell.dates } } : {}),
        ...(problems.length > 0 ? { problem: `${problems.join('; ')}.` } : {}),
      });
    }
  }
  return rows;
}

const KIND_WORDS = {
  iso: 'ISO strings',
  millis: 'epoch milliseconds',
  seconds: 'epoch seconds',
  other: 'values that are no Date',
} as const;

/** The declared Date storage against what the items hold: a sentence when any value differs. */
function storageProblem(declared: string | undefined, dates: DateKinds): string | undefined {
  const want = (declared ?? 'millis') as keyof typeof STORAGE_WORDS;
  const off = (['iso', 'millis', 'seconds', 'other'] as const).filter((k) => k !== want && dates[k] > 0);
  if (off.length === 0) return undefined;
  return `${off.map((k) => `${dates[k]} ${dates[k] === 1 ? 'item stores' : 'items store'} ${KIND_WORDS[k]}`).join(', ')} where the model declares the Date as ${STORAGE_WORDS[want]}`;
}

function behavioursOf(models: readonly DynamooseModel[]): string[] {
  const all = models.flatMap((m) => walk(m.attributes));
  const settings = models.map((m) => m.settings);
  const out = [
    "item.save() is gone: dynamoose's save() wrote the whole item over whatever was stored; use create() (which, like dynamoose's, refuses a key that exists) or update().",
    'Reads are not type-checked: dynamoose converted or refused stored values that did not match the schema, dynotable-orm returns what is stored (the conformance rows show where those differ).',
    'An update of a nested path: dynotable-orm writes a.b inside the map a, dynamoose 4.2.0 a top-level attribute named "a.b"; until every service has moved, make nested updates only from dynotable-orm\'s code.',
    'An update with nothing to write throws before anything is sent; dynamoose sent it.',
  ];
  if (all.some((a) => a.combine))
    out.push(
      "An update that writes none of a Combine's sources stores different bytes in the two libraries (the migration guide's first listed difference).",
    );
  if (settings.some((s) => s.timestamps))
    out.push(
      'An update that passes its own updatedAt on a model with timestamps stores different bytes in the two libraries (the migration guide lists it).',
    );
  if (all.some((a) => a.type === 'Set' || a.arrayShorthand))
    out.push(
      'A $REMOVE from a set and a $SET of a list in one update store different bytes in the two libraries (the migration guide lists it).',
    );
  if (settings.some((s) => s.expires && s.expires.returnExpired !== true))
    out.push(
      "Expired items were hidden by dynamoose's reads; dynotable-orm returns them until DynamoDB deletes them.",
    );
  if (settings.some((s) => s.saveUnknown))
    out.push(
      'Top-level attributes with a dot in their name are dropped on read by dynotable-orm, so writing an item read that way deletes them.',
    );
  return out;
}
