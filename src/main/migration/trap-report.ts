import type {
  DateAttributeFinding,
  FindingKind,
  MigrationFinding,
  PlainKey,
} from '../../shared/ipc/migration';
import { findingKindSchema } from '../../shared/ipc/migration';
import { isTimeName } from '../../shared/schema/time-names';
import { ownValue } from '../../shared/dynamo/proto-keys';
import { formatStep, parsePath } from './paths';
import { type Sample, toPlainKey } from './samples';
import type { ShapeStats, TrapCell, TrapCounter, TrapState } from './traps';

/**
 * The report's findings of older dynamoose releases (issue 29), from the counts traps.ts kept:
 * each with its count, sample keys, why it matters and what to do, in one sentence each.
 */

/**
 * A name present in at least this share of an entity's items (or of the maps at a path) is taken
 * as one every item was written with ("missing attributes every other item has"); the rest lack
 * it because an upsert or a partial update wrote them. Below it the name is more likely optional:
 * at 75% a 4.x table whose address is absent on one item in five read as upsert residue.
 */
const USUAL_SHARE = 0.9;

type Finding = Omit<MigrationFinding, 'kind' | 'detail' | 'fix' | 'isDataFix'>;

interface KindText {
  isDataFix: boolean;
  detail(f: Finding, a: string, b: string): string;
  fix: string;
}

const n = (count: number, one: string, many = `${one}s`) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
/** "1 item holds", "3 items hold". */
const nv = (count: number, one: string, verbOne: string, verbMany: string) =>
  `${n(count, one)} ${count === 1 ? verbOne : verbMany}`;

const TEXT: Record<FindingKind, KindText> = {
  booleanAsString: {
    isDataFix: true,
    detail: (f) =>
      `${nv(f.items, 'item', 'holds', 'hold')} the string "true" or "false" at ${f.path} (dynamoose 0.x without useNativeBooleans), which a z.boolean() in the new ORM rejects and a string field keeps as text, so "false" would read as a non-empty string.`,
    fix: 'Rewrite the values as BOOL before the new ORM reads this path (fix-migration --bool-path PATH), or declare it a string and convert in code.',
  },
  documentAsString: {
    isDataFix: true,
    detail: (f) =>
      `${nv(f.items, 'item', 'holds', 'hold')} a map or list as JSON text at ${f.path} (dynamoose 0.x without useDocumentTypes, or an Object without a schema in 1.x), which the new ORM reads as a string where its model declares an object or array.`,
    fix: 'Rewrite the JSON text as a map or list (M/L) on the paths whose model declares one (fix-migration --document-path PATH), or keep a string type and parse in code.',
  },
  setListMix: {
    isDataFix: true,
    detail: (f, lists) =>
      `${nv(f.items, 'item', 'holds', 'hold')} a set (SS/NS, dynamoose 1.x [String]/[Number]) at ${f.path} while ${lists} hold a list (L, 2.x and later arrays), so the new ORM fails validation on whichever form its model does not declare.`,
    fix: 'Convert every item to the form the model declares: the sets to lists for z.array() (fix-migration --set-to-list PATH), or the lists to sets for a set type (--list-to-set PATH).',
  },
  ttlMilliseconds: {
    isDataFix: true,
    detail: (f) =>
      `${nv(f.items, 'item', 'holds', 'hold')} the TTL attribute ${f.path} in epoch milliseconds, which DynamoDB reads as a time thousands of years ahead, so they never expire, and a model reading TTL as seconds is off by 1000×.`,
    fix: 'Rewrite the values in epoch seconds (fix-migration --ttl-seconds) so DynamoDB expires the items.',
  },
  ttlNotNumber: {
    isDataFix: true,
    detail: (f) =>
      `${nv(f.items, 'item', 'holds', 'hold')} the TTL attribute ${f.path} as something other than a number (an ISO string from a Date with storage 'iso', for example), which DynamoDB ignores, so they never expire.`,
    fix: 'Rewrite the values as epoch seconds (N), or remove them from items that should not expire.',
  },
  ttlMissing: {
    isDataFix: true,
    detail: (f) =>
      `${nv(f.items, 'item', 'lacks', 'lack')} the TTL attribute ${f.path} that other items of the entity have (written by Model.update() upserts or before expires was set), so they never expire.`,
    fix: 'Decide whether they should expire, and if so give them a TTL in epoch seconds.',
  },
  ttlExpiredPresent: {
    isDataFix: false,
    detail: (f) =>
      `${nv(f.items, 'item', 'has', 'have')} a TTL at ${f.path} that had passed when the scan started but are still stored (DynamoDB deletes expired items late); dynamoose hid them on read, and a new model that does not filter on the TTL will return them.`,
    fix: 'Filter expired items in the new model (the TTL attribute before now) wherever dynamoose hid them.',
  },
  dateLostToEmptyMap: {
    isDataFix: true,
    detail: (f) =>
      `${nv(f.items, 'item', 'holds', 'hold')} an empty map at ${f.path}, where a Date nested without a sub-schema was saved as {} (dynamoose #1373): the date itself is gone from the table, and the new ORM reads an object where its model declares a Date.`,
    fix: 'Needs a decision: recover the dates from point-in-time recovery or an export from before the loss, or remove the empty maps and accept the loss.',
  },
  upsertResidue: {
    isDataFix: true,
    detail: (f, what) =>
      `${nv(f.items, 'item', 'lacks', 'lack')} ${f.path}, ${what}: Model.update() is an unconditional upsert, so an update of an item that did not exist created it partially, and a new model that requires ${f.path} fails to read them.`,
    fix: 'Needs a decision: complete the items, delete them, or make the attribute optional in the new model.',
  },
  mapTruncated: {
    isDataFix: true,
    detail: (f, map, name) =>
      `${n(f.items, 'map')} at ${map} ${f.items === 1 ? 'lacks' : 'lack'} ${name}, which most of them hold: a partial nested update replaced the whole map (dynamoose #1776), and a new model that requires ${name} fails to read them.`,
    fix: 'Needs a decision: restore the missing names from a backup or an export, or make them optional in the new model.',
  },
  dottedKeyInMap: {
    isDataFix: true,
    detail: (f) =>
      `${nv(f.items, 'item', 'holds', 'hold')} a map key with a dot at ${f.path} (dynamoose saveUnknown, #1589), which the new ORM reads as a nested path instead of one name, so the value is neither read nor written where the model expects it.`,
    fix: 'Rename the key inside its map to the nested path the model declares, or declare the dotted name as a quoted key.',
  },
  keyAttributeDate: {
    isDataFix: false,
    detail: (f, storage) =>
      `${nv(f.items, 'item', 'holds', 'hold')} Dates as ${storage} in the key attribute ${f.path}, and a key attribute's type cannot change in place, so a new model that wants another storage cannot convert these items without copying them to new keys.`,
    fix: 'Declare the stored form for this key in the new model, or copy the items to a table with the new key type.',
  },
  staleCombine: {
    isDataFix: true,
    detail: (f) =>
      `${nv(f.items, 'item', 'holds', 'hold')} a Combine value at ${f.path} that is no longer its sources joined (an update changed a source through a model without the Combine), so the new ORM, which stores no derived attribute, reads a value the item's own attributes contradict.`,
    fix: 'Recompute the value from its sources before the migration, or drop the attribute and derive it in code; the sample keys open the stale items.',
  },
};

const KIND_ORDER = new Map(findingKindSchema.options.map((k, i) => [k, i]));

export function isDataFixKind(kind: FindingKind): boolean {
  return TEXT[kind].isDataFix;
}

function entityName(label: string): string | null {
  if (label === '') return null;
  const [kind, first = '', second = ''] = label.split(':');
  return kind === 'const' ? `${first}/${second}` : first;
}

const keys = (samples: readonly Sample[]): PlainKey[] => samples.map((s) => toPlainKey(s.key));

function finding(kind: FindingKind, f: Finding, a = '', b = ''): MigrationFinding {
  const text = TEXT[kind];
  return { ...f, kind, detail: text.detail(f, a, b), fix: text.fix, isDataFix: text.isDataFix };
}

function lastName(path: string): string {
  try {
    const steps = parsePath(path);
    for (let i = steps.length - 1; i >= 0; i--) if (typeof steps[i] === 'string') return steps[i] as string;
  } catch {
    // A path traps.ts wrote always parses; an unreadable one is simply not time-named.
  }
  return '';
}

const DIRECT: Partial<Record<TrapCounter, FindingKind>> = {
  booleanAsString: 'booleanAsString',
  documentAsString: 'documentAsString',
  dottedKeyInMap: 'dottedKeyInMap',
  ttlMilliseconds: 'ttlMilliseconds',
  ttlNotNumber: 'ttlNotNumber',
  ttlExpiredPresent: 'ttlExpiredPresent',
  staleCombine: 'staleCombine',
};

export function trapFindings(
  traps: TrapState | undefined,
  dates: readonly DateAttributeFinding[],
  ttlAttribute: string | undefined,
): MigrationFinding[] {
  const out: MigrationFinding[] = [];
  const cells = traps ? Object.values(traps.cells) : [];
  const cell = (counter: TrapCounter, entity: string, path: string): TrapCell | undefined =>
    traps ? ownValue(traps.cells, `${counter}\u0000${entity}\u0000${path}`) : undefined;
  const shape = (entity: string, path: string): ShapeStats | undefined =>
    traps ? ownValue(traps.shapes, `${entity}\u0000${path}`) : undefined;
  const datePaths = new Set(dates.map((d) => d.path));
  for (const c of cells) {
    const base = { path: c.path, entity: entityName(c.entity), items: c.items, sampleKeys: keys(c.samples) };
    const direct = DIRECT[c.counter];
    if (direct) out.push(finding(direct, base));
    else if (c.counter === 'set') {
      const lists = cell('list', c.entity, c.path);
      if (lists) out.push(finding('setListMix', base, n(lists.items, 'item')));
    } else if (c.counter === 'ttlMissing') {
      if (cell('ttlPresent', c.entity, c.path)) out.push(finding('ttlMissing', base));
    } else if (c.counter === 'emptyMap') {
      if (isTimeName(lastName(c.path)) || datePaths.has(c.path))
        out.push(finding('dateLostToEmptyMap', base));
    } else if (c.counter === 'updatedWithoutCreated') {
      // Only where the entity's items are written with createdAt at all.
      const items = shape(c.entity, '');
      if (items && (ownValue(items.present, c.path) ?? 0) > 0)
        out.push(finding('upsertResidue', base, c.items === 1 ? 'but has updatedAt' : 'but have updatedAt'));
    }
  }
  for (const s of traps ? Object.values(traps.shapes) : []) {
    for (const name of Object.keys(s.present)) {
      const present = s.present[name] as number;
      if (present === s.maps || present < s.maps * USUAL_SHARE) continue;
      const top = s.path === '';
      // createdAt and the TTL attribute have findings of their own.
      if (top && (name === 'createdAt' || name === ttlAttribute)) continue;
      const path = top ? formatStep(name, true) : `${s.path}${formatStep(name, false)}`;
      const f = {
        path,
        entity: entityName(s.entity),
        items: s.maps - present,
        sampleKeys: keys(ownValue(s.absent, name) ?? []),
      };
      const share = `which ${n(present, 'other item')} of the entity have`;
      out.push(
        top ? finding('upsertResidue', f, share) : finding('mapTruncated', f, s.path, JSON.stringify(name)),
      );
    }
  }
  for (const d of dates) {
    if (!d.isKey && d.indexKeyOf.length === 0) continue;
    const storage = [
      d.iso > 0 ? 'ISO strings' : '',
      d.epochMillis > 0 ? 'epoch ms' : '',
      d.epochSeconds > 0 ? 'epoch seconds' : '',
    ]
      .filter(Boolean)
      .join(' and ');
    const items = d.iso + d.epochMillis + d.epochSeconds;
    out.push(
      finding('keyAttributeDate', { path: d.path, entity: null, items, sampleKeys: d.sampleKeys }, storage),
    );
  }
  return out.sort(
    (a, b) =>
      (KIND_ORDER.get(a.kind) ?? 0) - (KIND_ORDER.get(b.kind) ?? 0) ||
      compare(a.entity ?? '', b.entity ?? '') ||
      compare(a.path, b.path),
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
