import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import type { FixPolicy, PlannedUpdate, ReviewEntry } from '../../shared/ipc/migration';
import { fromPlain } from '../../shared/dynamo/item-json';
import { parseJsonText } from '../../shared/dynamo/json-text';
import { classifyIso, IsoKind } from './classify';
import { UpdateBuilder } from './fix-expression';
import { formatPath, type PathStep } from './paths';
import { keyOf, toPlainKey } from './samples';
import { isJsonDocument } from './traps';
import { sameValue } from './value-equal';

export interface PlanOptions {
  keyAttributes: readonly string[];
  policy: FixPolicy;
  convertDates: boolean;
  /** Only these paths (as the report writes them); all ISO paths when absent. */
  datePaths?: ReadonlySet<string>;
  /** Top-level attributes whose type must not change: table and index keys. */
  protectedAttributes: ReadonlySet<string>;
  /** Paths (as the report writes them) whose "true"/"false" strings become BOOL (booleanAsString). */
  booleanPaths?: ReadonlySet<string>;
  /** Rewrite JSON text (0.x's maps and lists without useDocumentTypes) as M/L at these paths. */
  documentPaths?: ReadonlySet<string>;
  /** The TTL attribute, when its epoch-ms values are to become epoch seconds (ttlMilliseconds). */
  ttlMillisAttribute?: string;
  /** Only the TTL rewrite: dotted names and dates are left alone (the Health tab's fix). */
  ttlOnly?: boolean;
  /** Paths whose string and number sets become lists (setListMix, the model declares an array). */
  setToListPaths?: ReadonlySet<string>;
  /** Paths whose lists of strings (or of numbers) become sets (setListMix, the model declares a set). */
  listToSetPaths?: ReadonlySet<string>;
}

/** A value rewritten in place: where, as the scan saw it, and as it will be written. */
export interface PlanChange {
  path: string;
  before: AttributeValue;
  after: AttributeValue;
}

export interface ItemPlan {
  update?: PlannedUpdate;
  /** The rewrites of this item's update (absent when it has none). */
  changes?: PlanChange[];
  moves: number;
  removals: number;
  conversions: number;
  /** Values rewritten in the type the new ORM reads (booleans, TTL seconds). */
  rewrites: number;
  review: ReviewEntry[];
}

/** One thing to do to an item: the paths it writes (to detect overlaps) and how to write it. */
interface Op {
  label: string;
  writes: PathStep[][];
  kind: 'move' | 'remove' | 'convert' | 'rewrite';
  apply(b: UpdateBuilder): void;
  change?: PlanChange;
}

type Typed =
  | { state: 'found'; steps: PathStep[]; value: AttributeValue }
  | { state: 'missing'; steps: PathStep[]; at: number }
  | { state: 'blocked'; reason: string };

/** Resolves a dotted name's steps against the item, turning numeric steps on lists into indexes. */
function resolve(item: Item, names: string[]): Typed {
  const steps: PathStep[] = [names[0] as string];
  let current: AttributeValue | undefined = item[names[0] as string];
  if (current === undefined) return { state: 'missing', steps: names, at: 0 };
  for (let i = 1; i < names.length; i++) {
    const name = names[i] as string;
    let next: AttributeValue | undefined;
    if ('M' in current) {
      steps.push(name);
      next = current.M[name];
    } else if ('L' in current && /^\d+$/.test(name)) {
      steps.push(Number(name));
      next = current.L[Number(name)];
      if (next === undefined)
        return { state: 'blocked', reason: 'the nested path goes past the end of a list' };
    } else
      return {
        state: 'blocked',
        reason: `${formatPath(steps)} is not a map, so the nested path cannot be created`,
      };
    if (next === undefined) return { state: 'missing', steps: [...steps, ...names.slice(i + 1)], at: i };
    current = next;
  }
  return { state: 'found', steps, value: current };
}

function wrap(names: readonly PathStep[], value: AttributeValue): AttributeValue {
  return names.reduceRight<AttributeValue>((inner, name) => ({ M: { [String(name)]: inner } }), value);
}

function deepMerge(a: AttributeValue, b: AttributeValue): AttributeValue | undefined {
  if (!('M' in a) || !('M' in b)) return undefined;
  const out: Record<string, AttributeValue> = { ...a.M };
  for (const [name, value] of Object.entries(b.M)) {
    const existing = out[name];
    const merged = existing === undefined ? value : deepMerge(existing, value);
    if (merged === undefined) return undefined;
    out[name] = merged;
  }
  return { M: out };
}

function overlaps(a: readonly PathStep[], b: readonly PathStep[]): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

type Review = (attribute: string, reason: string) => undefined;

function dottedOps(item: Item, name: string, options: PlanOptions, review: Review): Op | undefined {
  const shadow = item[name] as AttributeValue;
  const target = resolve(item, name.split('.'));
  if (options.protectedAttributes.has(name)) {
    review(name, 'it is a key attribute, so it cannot be removed');
    return;
  }
  if (target.state === 'blocked') {
    review(name, target.reason);
    return;
  }
  const expectShadow = (b: UpdateBuilder) => {
    b.expectValue([name], shadow);
    b.remove([name]);
  };
  if (target.state === 'found') {
    const same = sameValue(shadow, target.value);
    if (!same && options.policy === 'review') {
      review(name, 'the shadow and nested values differ');
      return;
    }
    const move = !same && options.policy === 'shadow-wins';
    return {
      label: name,
      kind: move ? 'move' : 'remove',
      writes: move ? [[name], target.steps] : [[name]],
      apply(b) {
        expectShadow(b);
        b.expectValue(target.steps, target.value);
        if (move) b.set(target.steps, shadow);
      },
    };
  }
  const created = target.steps.slice(0, target.at + 1);
  return {
    label: name,
    kind: 'move',
    writes: [[name], created],
    apply(b) {
      expectShadow(b);
      b.expectAbsent(created);
      if (target.at > 0) b.expectMap(created.slice(0, -1));
      b.set(created, wrap(target.steps.slice(target.at + 1), shadow));
    },
  };
}

/** Several shadows creating the same missing map (a.b and a.c without a) become one SET a = {b, c}. */
function mergeCreations(item: Item, names: string[], ops: Op[], options: PlanOptions, review: Review): void {
  const groups = new Map<
    string,
    { created: PathStep[]; at: number; value: AttributeValue; names: string[] }
  >();
  const conflicted = new Set<string>();
  for (const name of names) {
    const target = resolve(item, name.split('.'));
    if (target.state !== 'missing' || options.protectedAttributes.has(name)) continue;
    const created = target.steps.slice(0, target.at + 1);
    const id = JSON.stringify(created);
    const value = wrap(target.steps.slice(target.at + 1), item[name] as AttributeValue);
    const group = groups.get(id);
    const merged = group ? deepMerge(group.value, value) : value;
    if (group && merged === undefined) {
      for (const n of [...group.names, name]) {
        review(n, 'two shadow attributes write the same nested path');
        conflicted.add(n);
      }
      groups.delete(id);
      continue;
    }
    groups.set(id, {
      created,
      at: target.at,
      value: merged as AttributeValue,
      names: [...(group?.names ?? []), name],
    });
  }
  for (let i = ops.length - 1; i >= 0; i--) if (conflicted.has((ops[i] as Op).label)) ops.splice(i, 1);
  for (const group of groups.values()) {
    if (group.names.length < 2) continue;
    const index = ops.findIndex((op) => group.names.includes(op.label));
    const labels = new Set(group.names);
    for (let i = ops.length - 1; i >= 0; i--) if (labels.has((ops[i] as Op).label)) ops.splice(i, 1);
    ops.splice(Math.max(0, index), 0, {
      label: group.names.join(' + '),
      kind: 'move',
      writes: [...group.names.map((n) => [n]), group.created],
      apply(b) {
        for (const n of group.names) {
          b.expectValue([n], item[n] as AttributeValue);
          b.remove([n]);
        }
        b.expectAbsent(group.created);
        if (group.at > 0) b.expectMap(group.created.slice(0, -1));
        b.set(group.created, group.value);
      },
    });
  }
}

/** ISO text → epoch ms; null when the engine cannot read it exactly (then a person should look). */
export function isoToMillis(iso: string): number | null {
  // Date.parse wants ±hh:mm; dynamoose never writes ±hhmm but other code may.
  const text = iso.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Every value of the item with its path (top-level names `skip` allows), maps and lists descended
 * unless `visit` took the value. `steps` is reused: copy it to keep it.
 */
function walkItem(
  item: Item,
  skip: (name: string) => boolean,
  visit: (value: AttributeValue, steps: PathStep[]) => boolean,
): void {
  const steps: PathStep[] = [];
  const walk = (value: AttributeValue): void => {
    if (visit(value, steps)) return;
    if ('M' in value) {
      for (const [name, inner] of Object.entries(value.M)) {
        steps.push(name);
        walk(inner);
        steps.pop();
      }
    } else if ('L' in value) {
      value.L.forEach((inner, i) => {
        steps.push(i);
        walk(inner);
        steps.pop();
      });
    }
  };
  for (const [name, value] of Object.entries(item)) {
    if (skip(name)) continue;
    steps.push(name);
    walk(value);
    steps.pop();
  }
}

function dateOps(item: Item, options: PlanOptions, ops: Op[], review: Review): void {
  // Keys cannot change type in place; dotted shadows move as they are (a later scan sees them).
  const skip = (name: string) => options.protectedAttributes.has(name) || name.includes('.');
  walkItem(item, skip, (value, steps) => {
    if (!('S' in value)) return false;
    if (classifyIso(value.S) === IsoKind.none) return true;
    const path = formatPath(steps);
    if (options.datePaths && !options.datePaths.has(path)) return true;
    const millis = isoToMillis(value.S);
    if (millis === null) {
      review(path, `cannot read ${value.S} as a date`);
      return true;
    }
    const at = [...steps];
    ops.push({
      label: path,
      kind: 'convert',
      writes: [at],
      apply(b) {
        b.expectValue(at, value);
        b.set(at, { N: String(millis) });
      },
    });
    return true;
  });
}

/** dynamoose 1.x's [String]/[Number] set as the list 2.x and later write (members in stored order). */
function setAsList(value: AttributeValue): AttributeValue {
  if ('SS' in value) return { L: value.SS.map((S) => ({ S })) };
  return { L: (value as { NS: string[] }).NS.map((N) => ({ N })) };
}

/** A list as a set, or why it cannot be one (sets hold distinct strings or numbers, never none). */
function listAsSet(list: readonly AttributeValue[]): AttributeValue | string {
  if (list.length === 0) return 'an empty list cannot be a set';
  const strings: string[] = [];
  const numbers: string[] = [];
  for (const v of list) {
    if ('S' in v) strings.push(v.S);
    else if ('N' in v) numbers.push(v.N);
    else return 'the list holds values other than strings and numbers';
  }
  if (strings.length > 0 && numbers.length > 0) return 'the list mixes strings and numbers';
  const members = strings.length > 0 ? strings : numbers;
  if (new Set(members).size !== members.length) return 'the list repeats a value, which a set would drop';
  return strings.length > 0 ? { SS: strings } : { NS: numbers };
}

/** One conditional SET of a value the scan saw, to the form the new ORM reads. */
function rewriteOp(at: PathStep[], seen: AttributeValue, next: AttributeValue): Op {
  return {
    label: formatPath(at),
    kind: 'rewrite',
    writes: [at],
    change: { path: formatPath(at), before: seen, after: next },
    apply(b) {
      b.expectValue(at, seen);
      b.set(at, next);
    },
  };
}

/**
 * dynamoose 0.x's "true"/"false" strings as BOOL on the paths the user picked, and a TTL in epoch
 * ms as epoch seconds. Only exact matches: any other string, or a TTL that is not 11–13 digits,
 * is left alone (a second run finds nothing to do).
 */
function rewriteOps(item: Item, options: PlanOptions, ops: Op[], review: Review): void {
  const paths = options.booleanPaths;
  const documents = options.documentPaths;
  const toList = options.setToListPaths;
  const toSet = options.listToSetPaths;
  if (
    (paths && paths.size > 0) ||
    (documents && documents.size > 0) ||
    (toList && toList.size > 0) ||
    (toSet && toSet.size > 0)
  ) {
    walkItem(
      item,
      (name) => options.protectedAttributes.has(name),
      (value, steps) => {
        if ('S' in value) {
          if ((value.S === 'true' || value.S === 'false') && paths?.has(formatPath(steps)))
            ops.push(rewriteOp([...steps], value, { BOOL: value.S === 'true' }));
          else if (documents?.has(formatPath(steps)) && isJsonDocument(value.S)) {
            const document = documentOf(value.S);
            if (typeof document === 'string') review(formatPath(steps), document);
            else ops.push(rewriteOp([...steps], value, document));
          }
          return true;
        }
        if ('SS' in value || 'NS' in value) {
          if (toList?.has(formatPath(steps))) ops.push(rewriteOp([...steps], value, setAsList(value)));
          return true;
        }
        if (!('L' in value) || !toSet?.has(formatPath(steps))) return false;
        const set = listAsSet(value.L);
        if (typeof set === 'string') review(formatPath(steps), set);
        else ops.push(rewriteOp([...steps], value, set));
        return true;
      },
    );
  }
  const ttl = options.ttlMillisAttribute;
  if (ttl === undefined || options.protectedAttributes.has(ttl)) return;
  const value = Object.prototype.hasOwnProperty.call(item, ttl) ? item[ttl] : undefined;
  if (value && 'N' in value && /^[1-9]\d{10,12}$/.test(value.N))
    // At most 13 digits: a safe integer, so the division is exact before it is floored.
    ops.push(rewriteOp([ttl], value, { N: String(Math.floor(Number(value.N) / 1000)) }));
}

/** JSON text as the map or list it spells, every number kept digit for digit; or why it cannot be. */
function documentOf(text: string): AttributeValue | string {
  try {
    return fromPlain(text, parseJsonText(text));
  } catch (error) {
    return `its JSON text cannot be stored as a map or list: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * What the fix does to one item, as one UpdateItem whose condition holds only while every value
 * it touches is still what the scan saw — a concurrent writer's change makes it fail instead of
 * being overwritten. Anything ambiguous becomes a review entry and is not written.
 */
export function planItem(item: Item, options: PlanOptions): ItemPlan {
  const key = keyOf(item, options.keyAttributes);
  const review: ReviewEntry[] = [];
  const addReview = (attribute: string, reason: string): undefined => {
    review.push({ key: toPlainKey(key), attribute, reason });
    return undefined;
  };
  const dotted = options.ttlOnly ? [] : Object.keys(item).filter((n) => n.includes('.'));
  const ops: Op[] = [];
  for (const name of dotted) {
    const op = dottedOps(item, name, options, addReview);
    if (op) ops.push(op);
  }
  mergeCreations(item, dotted, ops, options, addReview);
  if (options.convertDates && !options.ttlOnly) dateOps(item, options, ops, addReview);
  rewriteOps(item, options, ops, addReview);

  const rejected = new Set<Op>();
  for (let i = 0; i < ops.length; i++) {
    for (let j = i + 1; j < ops.length; j++) {
      const a = ops[i] as Op;
      const b = ops[j] as Op;
      if (a.writes.some((p) => b.writes.some((q) => overlaps(p, q)))) rejected.add(a).add(b);
    }
  }
  for (const op of rejected) addReview(op.label, 'it writes a path another change to this item also writes');
  const accepted = ops.filter((op) => !rejected.has(op));
  const plan: ItemPlan = { moves: 0, removals: 0, conversions: 0, rewrites: 0, review };
  if (accepted.length === 0) return plan;
  const builder = new UpdateBuilder();
  for (const op of accepted) {
    op.apply(builder);
    if (op.kind === 'move') plan.moves += op.label.split(' + ').length;
    else if (op.kind === 'remove') plan.removals += 1;
    else if (op.kind === 'rewrite') plan.rewrites += 1;
    else plan.conversions += 1;
  }
  plan.update = builder.build(key);
  const changes = accepted.flatMap((op) => (op.change ? [op.change] : []));
  if (changes.length > 0) plan.changes = changes;
  return plan;
}
