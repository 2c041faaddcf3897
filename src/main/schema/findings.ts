import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { classifyEpoch, classifyIso } from '../migration/classify';
import type { PathNode, PathVisitor } from './path-walker';
import { keyOf, mergeSamples, offerSample, type Sample, sortKeyOf } from '../migration/samples';
import { compareWithNested, type DottedState } from '../migration/dotted';
import { defineOwn, ownValue } from '../../shared/dynamo/proto-keys';
import { addCounts } from './value-counts';
import { TYPE_INDEX } from './path-stats';
import type { DeclaredModel } from '../migration/declared-checks';
import { emptyTraps, TrapFindings, type TrapState } from '../migration/traps';

export interface DottedStats {
  items: number;
  parentMissing: number;
  missingParentMap: number;
  parentNotMap: number;
  sameAsNested: number;
  differsFromNested: number;
  samples: Sample[];
}

export interface DatePathStats {
  /** The top-level attribute and depth, to flag key attributes without re-parsing. */
  top: string;
  depth: number;
  /** The last map key on the path (list steps skipped): what "the name says it is a time" reads. */
  name: string;
  iso: number;
  isoDateOnly: number;
  epochMillis: number;
  epochSeconds: number;
  /** Of the values counted above, members of string or number sets (absent in older checkpoints). */
  setMembers?: number;
  /** Per kind, so a mostly converted path still shows where its last ISO strings are. */
  samples: { iso: Sample[]; millis: Sample[]; seconds: Sample[] };
}

/** Plain JSON, so a checkpoint can persist it and another segment's state can merge into it. */
export interface FindingsState {
  version: 1;
  items: number;
  dotted: Record<string, DottedStats>;
  paths: Record<string, DatePathStats>;
  untrackedPaths: number;
  /** What older dynamoose releases left (absent in checkpoints saved before it was counted). */
  traps?: TrapState;
}

export interface FindingsOptions {
  keyAttributes: readonly string[];
  /** Sample keys kept per finding. */
  sampleLimit?: number;
  /** Distinct date-like paths tracked; more are counted in untrackedPaths. */
  maxPaths?: number;
  /** The table's TTL attribute, when TTL is on: the TTL checks read it. */
  ttlAttribute?: string;
  /** "Now" for expired TTL values, in epoch seconds (the scan's start); default: now. */
  nowSeconds?: number;
  /** The models of a dynamoose schema file the pre-flight was given. */
  declared?: readonly DeclaredModel[];
}

const DOTTED_COUNTERS = [
  'items',
  'parentMissing',
  'missingParentMap',
  'parentNotMap',
  'sameAsNested',
  'differsFromNested',
] as const;
const DATE_COUNTERS = ['iso', 'isoDateOnly', 'epochMillis', 'epochSeconds'] as const;

export function emptyFindings(): FindingsState {
  return { version: 1, items: 0, dotted: {}, paths: {}, untrackedPaths: 0 };
}

/**
 * What the migration pre-flight looks for, as a part of the SchemaAccumulator's one walk:
 * date-like values (ISO strings, epoch numbers) per path, and top-level names with dots
 * compared with the nested path they look like. Per item it allocates nothing unless it finds
 * something: path text and sample keys are built only for date-like values and dotted names,
 * so scanning stays close to the speed of the Scan itself. The state is mutated in place, so a
 * checkpoint holding it is always current.
 */
export class DateFindings {
  readonly state: FindingsState;
  readonly maxPaths: number;
  private readonly keyAttributes: readonly string[];
  private readonly sampleLimit: number;
  private pathCount: number;
  private item: Item = {};
  private itemSort: string | undefined;
  private readonly traps: TrapFindings;

  constructor(options: FindingsOptions, state: FindingsState = emptyFindings()) {
    this.keyAttributes = options.keyAttributes;
    this.sampleLimit = options.sampleLimit ?? 5;
    this.maxPaths = options.maxPaths ?? 5000;
    this.state = state;
    this.pathCount = Object.keys(state.paths).length;
    this.traps = new TrapFindings(
      {
        keyAttributes: options.keyAttributes,
        sampleLimit: this.sampleLimit,
        ttlAttribute: options.ttlAttribute,
        nowSeconds: options.nowSeconds ?? Math.floor(Date.now() / 1000),
        maxCells: this.maxPaths,
        ...(options.declared ? { declared: options.declared } : {}),
      },
      (state.traps ??= emptyTraps()),
    );
  }

  /** Before the item's walk: its dotted top-level names. */
  startItem(item: Item): void {
    this.state.items += 1;
    this.item = item;
    this.itemSort = undefined;
    for (const name in item) if (name.includes('.')) this.dotted(name, item[name] as AttributeValue);
    this.traps.startItem(item);
  }

  merge(other: FindingsState): void {
    const s = this.state;
    s.items += other.items;
    s.untrackedPaths += other.untrackedPaths;
    if (other.traps) this.traps.merge(other.traps);
    for (const [name, o] of Object.entries(other.dotted)) {
      const d = this.dottedStats(name);
      addCounts(d, o, DOTTED_COUNTERS);
      mergeSamples(d.samples, o.samples, this.sampleLimit);
    }
    for (const [path, o] of Object.entries(other.paths)) {
      let p = ownValue(s.paths, path);
      if (!p) {
        if (this.pathCount >= this.maxPaths) {
          s.untrackedPaths += 1;
          continue;
        }
        this.pathCount += 1;
        p = {
          ...o,
          iso: 0,
          isoDateOnly: 0,
          epochMillis: 0,
          epochSeconds: 0,
          setMembers: 0,
          samples: { iso: [], millis: [], seconds: [] },
        };
        defineOwn(s.paths, path, p);
      }
      addCounts(p, o, DATE_COUNTERS);
      if (o.setMembers) p.setMembers = (p.setMembers ?? 0) + o.setMembers;
      mergeSamples(p.samples.iso, o.samples.iso, this.sampleLimit);
      mergeSamples(p.samples.millis, o.samples.millis, this.sampleLimit);
      mergeSamples(p.samples.seconds, o.samples.seconds, this.sampleLimit);
    }
  }

  /** A walker's visitor: date-like strings, numbers and set members, at their path's node. */
  readonly visitor: PathVisitor = {
    value: (node, value, type) => {
      this.traps.value(node, value, type);
      if (type === TYPE_INDEX.S) {
        // 0 none, 1 date-only, 2 date-time (numbers, not the IsoKind object: this is the hot path)
        const kind = classifyIso(value.S as string);
        if (kind !== 0) this.dateValue(node, kind === 1 ? 'date' : 'iso');
      } else if (type === TYPE_INDEX.N) {
        const kind = classifyEpoch(value.N as string); // 0 none, 1 seconds, 2 millis
        if (kind !== 0) this.dateValue(node, kind === 2 ? 'millis' : 'seconds');
      } else if (type === TYPE_INDEX.SS) {
        // A set of Dates is stored member by member the way the model says, like a scalar Date;
        // members count at the set's own path (they have no path of their own).
        for (const member of value.SS as string[]) {
          const kind = classifyIso(member);
          if (kind !== 0) this.dateValue(node, kind === 1 ? 'date' : 'iso', true);
        }
      } else if (type === TYPE_INDEX.NS) {
        for (const member of value.NS as string[]) {
          const kind = classifyEpoch(member);
          if (kind !== 0) this.dateValue(node, kind === 2 ? 'millis' : 'seconds', true);
        }
      }
    },
  };

  private dateValue(node: PathNode, kind: 'date' | 'iso' | 'millis' | 'seconds', inSet = false): void {
    const path = node.text;
    let p = ownValue(this.state.paths, path);
    if (!p) {
      if (this.pathCount >= this.maxPaths) {
        this.state.untrackedPaths += 1;
        return;
      }
      this.pathCount += 1;
      p = {
        top: node.top,
        depth: node.depth,
        name: node.name,
        iso: 0,
        isoDateOnly: 0,
        epochMillis: 0,
        epochSeconds: 0,
        samples: { iso: [], millis: [], seconds: [] },
      };
      defineOwn(this.state.paths, path, p);
    }
    if (inSet) p.setMembers = (p.setMembers ?? 0) + 1;
    if (kind === 'millis') {
      p.epochMillis += 1;
      this.sample(p.samples.millis, this.sampleLimit);
    } else if (kind === 'seconds') {
      p.epochSeconds += 1;
      this.sample(p.samples.seconds, this.sampleLimit);
    } else {
      p.iso += 1;
      if (kind === 'date') p.isoDateOnly += 1;
      this.sample(p.samples.iso, this.sampleLimit);
    }
  }

  /** Paths and names are data (an attribute may be called `constructor`): own entries only. */
  private dottedStats(name: string): DottedStats {
    let d = ownValue(this.state.dotted, name);
    if (!d) defineOwn(this.state.dotted, name, (d = newDotted()));
    return d;
  }

  private dotted(name: string, value: AttributeValue): void {
    const d = this.dottedStats(name);
    d.items += 1;
    const state: DottedState = compareWithNested(this.item, name, value);
    if (state === 'same') d.sameAsNested += 1;
    else if (state === 'differs') d.differsFromNested += 1;
    else {
      d.parentMissing += 1;
      if (state === 'noParent') d.missingParentMap += 1;
      if (state === 'parentNotMap') d.parentNotMap += 1;
    }
    this.sample(d.samples, this.sampleLimit);
  }

  private sample(list: Sample[], limit: number): void {
    this.itemSort ??= sortKeyOf(this.item, this.keyAttributes);
    offerSample(list, this.itemSort, () => keyOf(this.item, this.keyAttributes), limit);
  }
}

function newDotted(): DottedStats {
  return {
    items: 0,
    parentMissing: 0,
    missingParentMap: 0,
    parentNotMap: 0,
    sameAsNested: 0,
    differsFromNested: 0,
    samples: [],
  };
}
