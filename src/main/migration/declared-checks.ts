import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { defineOwn, ownValue } from '../../shared/dynamo/proto-keys';
import type { DynamooseAttribute, DynamooseModel } from '../../shared/ipc/migration-dynamoose';
import { classifyEpoch, classifyIso, EpochKind } from './classify';
import { mergeSamples, offerSample, type Sample } from './samples';

/**
 * What a dynamoose schema file declares, checked in the pre-flight's one walk: per item, the
 * model whose declared names it holds most of is taken as the one that wrote it (a table shared
 * by several models holds no model name), and its top-level attributes are compared with what
 * the item stores; each Combine attribute is compared with its sources joined as dynamoose
 * joins them. Plain JSON, merge()-able, like the rest of the pre-flight's state.
 */

export interface DeclaredModel {
  name: string;
  attributes: { name: string; type: string; required: boolean; dateStorage?: string; isShorthand: boolean }[];
  combines: { name: string; attributes: string[]; separator: string }[];
}

export interface ConformanceCell {
  model: string;
  path: string;
  present: number;
  types: Record<string, number>;
  mismatched: number;
  samples: Sample[];
  /** A declared Date: how its values are stored (absent for other types and older checkpoints). */
  dates?: DateKinds;
}

export interface DateKinds {
  iso: number;
  millis: number;
  seconds: number;
  other: number;
}

/** How one stored value holds a Date: an ISO string, epoch ms, epoch s, or none of them. */
function dateKindOf(value: AttributeValue): keyof DateKinds {
  if ('S' in value) return classifyIso(value.S) === 0 ? 'other' : 'iso';
  if (!('N' in value)) return 'other';
  const epoch = classifyEpoch(value.N);
  return epoch === EpochKind.millis ? 'millis' : epoch === EpochKind.seconds ? 'seconds' : 'other';
}

export interface DeclaredState {
  /** Items taken as each model's. */
  items: Record<string, number>;
  /** By model and attribute name. */
  cells: Record<string, ConformanceCell>;
}

export function emptyDeclared(): DeclaredState {
  return { items: Object.create(null) as never, cells: Object.create(null) as never };
}

export function declaredOf(models: readonly DynamooseModel[]): DeclaredModel[] {
  return models.map((m) => ({
    name: m.name,
    attributes: m.attributes.map((a) => ({
      name: a.name,
      type: a.type,
      required: a.required || a.key !== undefined,
      ...(a.dateStorage ? { dateStorage: a.dateStorage } : {}),
      isShorthand: a.arrayShorthand === true,
    })),
    combines: m.attributes.flatMap((a: DynamooseAttribute) =>
      a.combine ? [{ name: a.name, attributes: a.combine.attributes, separator: a.combine.separator }] : [],
    ),
  }));
}

/** The DynamoDB type tag of a stored value. */
export function tagOf(value: AttributeValue): string {
  return Object.keys(value)[0] ?? '?';
}

/** Whether the old model's declared type reads a value stored with this tag. */
export function accepts(declared: DeclaredModel['attributes'][number], tag: string): boolean {
  switch (declared.type) {
    case 'String':
    case 'Combine':
      return tag === 'S';
    case 'Number':
      return tag === 'N';
    case 'Boolean':
      return tag === 'BOOL';
    case 'Date':
      return declared.dateStorage === 'iso' ? tag === 'S' : tag === 'N';
    case 'Object':
      return tag === 'M';
    case 'Array':
      return tag === 'L' || (declared.isShorthand && (tag === 'SS' || tag === 'NS'));
    case 'Set':
      return tag === 'SS' || tag === 'NS' || tag === 'BS';
    case 'Buffer':
      return tag === 'B';
    case 'Constant':
      return tag === 'S' || tag === 'N' || tag === 'BOOL';
    default:
      return true; // Any, or a type not read: nothing to hold the data to
  }
}

/** A Combine's value as dynamoose computes it: the sources present, as text, joined by the separator. */
export function combined(item: Item, sources: readonly string[], separator: string): string {
  const parts: string[] = [];
  for (const name of sources) {
    const value = ownValue(item, name);
    if (value === undefined || 'NULL' in value) continue;
    if ('S' in value) parts.push(value.S);
    else if ('N' in value) parts.push(value.N);
    else if ('BOOL' in value) parts.push(String(value.BOOL));
    else parts.push(JSON.stringify(value));
  }
  return parts.join(separator);
}

export class DeclaredChecks {
  constructor(
    private readonly models: readonly DeclaredModel[],
    private readonly keyAttributes: readonly string[],
    readonly state: DeclaredState,
    private readonly sampleLimit: number,
  ) {}

  /** The model that wrote this item, as far as its names tell: the one it holds most declared names of. */
  modelOf(item: Item): DeclaredModel | undefined {
    let best: DeclaredModel | undefined;
    let bestScore = 0;
    for (const model of this.models) {
      let score = 0;
      for (const a of model.attributes)
        if (!this.keyAttributes.includes(a.name) && ownValue(item, a.name) !== undefined) score++;
      if (score > bestScore) [best, bestScore] = [model, score];
    }
    return best;
  }

  /** Checks one item; returns the Combine attributes it holds stale. */
  check(item: Item, sort: string, key: () => Item): string[] {
    const model = this.modelOf(item);
    if (!model) return [];
    defineOwn(this.state.items, model.name, (ownValue(this.state.items, model.name) ?? 0) + 1);
    for (const a of model.attributes) {
      const value = ownValue(item, a.name);
      if (value === undefined) continue;
      const cell = this.cellOf(model.name, a.name);
      cell.present++;
      const tag = tagOf(value);
      defineOwn(cell.types, tag, (ownValue(cell.types, tag) ?? 0) + 1);
      if (a.type === 'Date')
        (cell.dates ??= { iso: 0, millis: 0, seconds: 0, other: 0 })[dateKindOf(value)]++;
      if (!accepts(a, tag)) {
        cell.mismatched++;
        offerSample(cell.samples, sort, key, this.sampleLimit);
      }
    }
    const stale: string[] = [];
    for (const c of model.combines) {
      const stored = ownValue(item, c.name);
      if (stored && 'S' in stored && stored.S !== combined(item, c.attributes, c.separator))
        stale.push(c.name);
    }
    return stale;
  }

  merge(other: DeclaredState): void {
    for (const name of Object.keys(other.items))
      defineOwn(
        this.state.items,
        name,
        (ownValue(this.state.items, name) ?? 0) + (other.items[name] as number),
      );
    for (const o of Object.values(other.cells)) {
      const cell = this.cellOf(o.model, o.path);
      cell.present += o.present;
      cell.mismatched += o.mismatched;
      for (const tag of Object.keys(o.types))
        defineOwn(cell.types, tag, (ownValue(cell.types, tag) ?? 0) + (o.types[tag] as number));
      if (o.dates) {
        const dates = (cell.dates ??= { iso: 0, millis: 0, seconds: 0, other: 0 });
        for (const kind of ['iso', 'millis', 'seconds', 'other'] as const) dates[kind] += o.dates[kind];
      }
      mergeSamples(cell.samples, o.samples, this.sampleLimit);
    }
  }

  private cellOf(model: string, path: string): ConformanceCell {
    const id = `${model}\u0000${path}`;
    let cell = ownValue(this.state.cells, id);
    if (!cell) {
      cell = {
        model,
        path,
        present: 0,
        types: Object.create(null) as Record<string, number>,
        mismatched: 0,
        samples: [],
      };
      defineOwn(this.state.cells, id, cell);
    }
    return cell;
  }
}
