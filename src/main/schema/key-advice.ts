import type { AttributeSchema, KeyAdvice } from '../../shared/ipc/schema';
import type { KeyAttributeInfo, KeySchema } from '../../shared/ipc/tables';
import { MAX_KEY_ATTRIBUTES } from '../../shared/dynamo/key-model';
import { quoteName } from '../../shared/schema/schema-paths';
import { PART_SEP, SIGNATURE_SEP, type SyntheticIndexState, type SyntheticKeysState } from './synthetic-keys';

type Part = { label: string } | { slot: [KeyAttributeInfo['type'], string] | null };

const partsOf = (shape: string): Part[] =>
  shape === ''
    ? []
    : shape.split(PART_SEP).map((p) => {
        if (p === '{}') return { slot: null };
        if (p.startsWith('[')) return { slot: JSON.parse(p) as [KeyAttributeInfo['type'], string] };
        return { label: p };
      });

/** The shape with its slots blank: items of one skeleton are built the same way. */
const skeletonOf = (parts: Part[]) => parts.map((p) => ('label' in p ? p.label : '·')).join('#');

/** `ORDER_DATE` → orderDate: the attribute a label names, for a part no attribute holds yet. */
function nameFromLabel(label: string | undefined, fallback: string): string {
  if (!label) return fallback;
  const [first = '', ...rest] = label.toLowerCase().split('_').filter(Boolean);
  return first + rest.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

interface RoleChoice {
  attributes: KeyAttributeInfo[];
  /** The synthetic attribute's template, when its values are built from parts. */
  template?: string;
  slots: number;
}

/**
 * For one role (partition or sort) of the dominant skeleton: the attribute each slot is filled
 * by most often (its type from the attribute that holds it), or one named after the label before
 * it; a value that is not `#`-joined keeps its attribute as it is.
 */
function chooseRole(signatures: { parts: Part[]; count: number }[], kept: KeyAttributeInfo): RoleChoice {
  const first = signatures[0]?.parts ?? [];
  if (first.length === 0) return { attributes: [kept], slots: 0 };
  const attributes: KeyAttributeInfo[] = [];
  const template: string[] = [];
  first.forEach((part, i) => {
    if ('label' in part) {
      template.push(part.label);
      return;
    }
    const votes = new Map<string, { type: KeyAttributeInfo['type']; count: number }>();
    for (const s of signatures) {
      const p = s.parts[i];
      if (p && 'slot' in p && p.slot) {
        const [type, name] = p.slot;
        const seen = votes.get(name);
        votes.set(name, { type: seen?.type ?? type, count: (seen?.count ?? 0) + s.count });
      }
    }
    const best = [...votes].sort((a, b) => b[1].count - a[1].count)[0];
    const before = first[i - 1];
    const name =
      best?.[0] ??
      nameFromLabel(before && 'label' in before ? before.label : undefined, `${kept.name}Part${i + 1}`);
    attributes.push({ name, type: best?.[1].type ?? 'S' });
    template.push(`{${name}}`);
  });
  return { attributes, template: template.join('#'), slots: attributes.length };
}

function proposedName(attributes: KeyAttributeInfo[], taken: ReadonlySet<string>, index: string): string {
  const words = attributes.map((a) => a.name.replace(/[^A-Za-z0-9]/g, '')).filter(Boolean);
  const name = `by${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}`.slice(0, 200);
  if (words.length > 0 && !taken.has(name)) return name;
  for (let n = 1; ; n++) if (!taken.has(`${index}Native${n}`)) return `${index}Native${n}`;
}

function adviceFor(
  state: SyntheticIndexState,
  keys: KeySchema,
  presence: ReadonlyMap<string, number>,
  taken: ReadonlySet<string>,
): KeyAdvice | undefined {
  const signatures = state.signatures.map(([signature, count]) => {
    const [p = '', s = ''] = signature.split(SIGNATURE_SEP);
    const partition = partsOf(p);
    const sort = partsOf(s);
    return {
      partition,
      sort,
      count,
      skeleton: `${skeletonOf(partition)}${SIGNATURE_SEP}${skeletonOf(sort)}`,
    };
  });
  const bySkeleton = new Map<string, number>();
  for (const s of signatures) bySkeleton.set(s.skeleton, (bySkeleton.get(s.skeleton) ?? 0) + s.count);
  const dominant = [...bySkeleton].sort((a, b) => b[1] - a[1])[0];
  if (!dominant) return undefined;
  const mine = signatures.filter((s) => s.skeleton === dominant[0]);
  const partition = chooseRole(
    mine.map((s) => ({ parts: s.partition, count: s.count })),
    keys.partitionKey,
  );
  const sort = keys.sortKey
    ? chooseRole(
        mine.map((s) => ({ parts: s.sort, count: s.count })),
        keys.sortKey,
      )
    : { attributes: [], slots: 0 };
  // Only a key built of two or more attributes has a native multi-attribute replacement.
  if (partition.slots < 2 && sort.slots < 2) return undefined;
  const all = [...partition.attributes, ...sort.attributes];
  if (partition.attributes.length > MAX_KEY_ATTRIBUTES || sort.attributes.length > MAX_KEY_ATTRIBUTES)
    return undefined;
  if (new Set(all.map((a) => a.name)).size !== all.length) return undefined;
  const chosen = (parts: Part[], role: RoleChoice) =>
    parts.filter((p) => 'slot' in p).map((p, i) => 'slot' in p && p.slot?.[1] === role.attributes[i]?.name);
  const backfill = new Map(all.map((a) => [a.name, 0]));
  let ready = 0;
  for (const s of mine) {
    const p = partition.template ? chosen(s.partition, partition) : [];
    const k = sort.template ? chosen(s.sort, sort) : [];
    if ([...p, ...k].every(Boolean)) ready += s.count;
    p.forEach((ok, i) => {
      const name = partition.attributes[i]?.name as string;
      if (!ok) backfill.set(name, (backfill.get(name) ?? 0) + s.count);
    });
    k.forEach((ok, i) => {
      const name = sort.attributes[i]?.name as string;
      if (!ok) backfill.set(name, (backfill.get(name) ?? 0) + s.count);
    });
  }
  const present = Math.min(...all.map((a) => presence.get(quoteName(a.name)) ?? 0));
  const newcomers = exactNewcomers(state, all);
  const w = state.writeUnits;
  const native = partition.template && sort.template ? w[3] : partition.template ? w[1] : w[2];
  return {
    index: state.index,
    replaces: [
      ...(partition.template
        ? [{ attribute: state.partition, role: 'partition' as const, template: partition.template }]
        : []),
      ...(sort.template && state.sort !== undefined
        ? [{ attribute: state.sort, role: 'sort' as const, template: sort.template }]
        : []),
    ],
    proposedName: proposedName(all, taken, state.index),
    partitionKeys: partition.attributes,
    sortKeys: sort.attributes,
    indexItems: state.items,
    shapeItems: dominant[1],
    readyItems: ready,
    backfill: [...backfill].filter(([, n]) => n > 0).map(([name, items]) => ({ name, items })),
    otherShapes: state.items - dominant[1],
    newcomersAtMost: newcomers ?? Math.max(0, present - ready),
    ...(newcomers === undefined ? {} : { newcomers }),
    bytesSaved: (partition.template ? state.bytes[0] : 0) + (sort.template ? state.bytes[1] : 0),
    writeUnits: { now: w[0], native },
  };
}

/**
 * Items without the synthetic index's keys that hold every attribute of the proposed key with
 * its type (what DynamoDB puts in a sparse index): exact from the read's outside shapes, or
 * undefined when some were past the bound (or the read predates them) and only a bound is known.
 */
function exactNewcomers(state: SyntheticIndexState, key: readonly KeyAttributeInfo[]): number | undefined {
  if (state.outside === undefined || (state.outsideUntracked ?? 0) > 0) return undefined;
  let count = 0;
  for (const [held, items] of state.outside) {
    const types = new Map((JSON.parse(held) as [string, string][]).map(([type, name]) => [name, type]));
    if (key.every((a) => types.get(a.name) === a.type)) count += items;
  }
  return count;
}

/** Every index whose keys are synthetic concatenations, with the native index that replaces it. */
export function keyAdviceOf(
  state: SyntheticKeysState,
  indexes: readonly { name: string; keys: KeySchema }[],
  attributes: readonly AttributeSchema[],
): KeyAdvice[] {
  const presence = new Map(attributes.map((a) => [a.path, a.items]));
  const taken = new Set(indexes.map((i) => i.name));
  const out: KeyAdvice[] = [];
  for (const s of state.indexes) {
    const keys = indexes.find((i) => i.name === s.index)?.keys;
    const advice = keys ? adviceFor(s, keys, presence, taken) : undefined;
    if (advice) {
      taken.add(advice.proposedName);
      out.push(advice);
    }
  }
  return out;
}
