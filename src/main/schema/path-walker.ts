import type { AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb';
import { TYPE_INDEX } from './path-stats';
import { typeIndexOf } from './sdk-values';

/** A map key, a list index, or ELEMENT: "every element of the list" (the schema's `[]`). */
export type WalkStep = string | number;
export const ELEMENT = -1;

/**
 * One attribute path, as a node of the walker's trie: a path met again in the next item is the
 * same node, so its text (and whatever a visitor hangs on it) is built once per scan, not per
 * value — that is most of what keeps an analysis near the speed of the Scan that feeds it.
 */
export class PathNode {
  /** For the visitor: e.g. the statistics of this path, found once instead of by text per value. */
  slot: unknown;
  children: Map<WalkStep, PathNode> | undefined;
  /**
   * The children met in the last map walked at this node, by position: the next item's map
   * mostly has the same names in the same order, found by one comparison instead of a lookup.
   */
  recent: PathNode[] | undefined;
  private memo: string | undefined;

  constructor(
    readonly parent: PathNode | undefined,
    readonly step: WalkStep,
    readonly depth: number,
    private readonly format: (steps: readonly WalkStep[]) => string,
  ) {}

  get text(): string {
    return (this.memo ??= this.format(this.steps()));
  }

  steps(): WalkStep[] {
    const out: WalkStep[] = new Array<WalkStep>(this.depth);
    out[this.depth - 1] = this.step;
    for (let n = this.parent, i = this.depth - 2; n; n = n.parent, i--) out[i] = n.step;
    return out;
  }

  /** The top-level attribute the path starts at. */
  get top(): string {
    let n = this.parent;
    if (!n) return this.step as string;
    while (n.parent) n = n.parent;
    return n.step as string;
  }

  /** The last map key on the path (list steps skipped): what "the name says it is a time" reads. */
  get name(): string {
    if (typeof this.step === 'string') return this.step;
    let n = this.parent;
    while (n && typeof n.step !== 'string') n = n.parent;
    return (n?.step ?? '') as string;
  }
}

export interface PathVisitor {
  /**
   * Every value at its path, maps and lists before their contents. Set members have no path of
   * their own: the visitor reads them at the set's node. `type` is the value's TYPE_INDEX.
   */
  value(node: PathNode, value: SdkValue, type: number): void;
}

export interface PathWalkerOptions {
  /** List elements by position (`lines[0]`, what a fix needs) or all as one path (`lines[]`). */
  lists: 'index' | 'element';
  format: (steps: readonly WalkStep[]) => string;
  /** Trie nodes kept; past this, new paths get a node of their own each time (correct, slower). */
  maxNodes?: number;
}

/**
 * The one walk over every attribute path of an item (map keys, list elements, sets at their
 * own path) that the Schema view and the migration pre-flight both run. Items come as the SDK
 * returns them; only binary differs from the tagged form and the walk never reads it.
 */
export class PathWalker {
  private readonly rootNode: PathNode;
  private readonly maxNodes: number;
  private nodes = 0;

  constructor(private readonly options: PathWalkerOptions) {
    this.rootNode = new PathNode(undefined, '', 0, options.format);
    this.maxNodes = options.maxNodes ?? 20_000;
  }

  /** The item's node: its top-level attributes are its children. */
  get root(): PathNode {
    return this.rootNode;
  }

  walkItem(item: Record<string, SdkValue>, visitor: PathVisitor): void {
    this.walkMap(this.rootNode, item, visitor);
  }

  /**
   * The node of the `i`-th name of a map at `node`: the name the same position held last time
   * is one comparison (a wire walk compares its bytes before it makes the name a string).
   */
  member(node: PathNode, i: number, name: string): PathNode {
    const recent = (node.recent ??= []);
    let child = recent[i];
    if (child === undefined || child.step !== name) {
      child = this.child(node, name);
      // Only a node of the trie: past maxNodes a path's node is not kept.
      if (node.children?.get(name) === child) recent[i] = child;
    }
    return child;
  }

  /** The node of every element of a list at `node` (lists: 'element'). */
  element(node: PathNode): PathNode {
    return this.child(node, ELEMENT);
  }

  private walkMap(node: PathNode, map: Record<string, SdkValue>, visitor: PathVisitor): void {
    let i = 0;
    for (const name in map) {
      if (!Object.prototype.hasOwnProperty.call(map, name)) continue;
      this.walk(this.member(node, i++, name), map[name] as SdkValue, visitor);
    }
  }

  private walk(node: PathNode, value: SdkValue, visitor: PathVisitor): void {
    const type = typeIndexOf(value);
    visitor.value(node, value, type);
    if (type === TYPE_INDEX.M) this.walkMap(node, value.M as Record<string, SdkValue>, visitor);
    else if (type === TYPE_INDEX.L) {
      const list = value.L as SdkValue[];
      if (this.options.lists === 'element') {
        if (list.length === 0) return;
        const element = this.element(node);
        for (const v of list) this.walk(element, v, visitor);
      } else {
        for (let i = 0; i < list.length; i++) this.walk(this.child(node, i), list[i] as SdkValue, visitor);
      }
    }
  }

  private child(parent: PathNode, step: WalkStep): PathNode {
    let child = parent.children?.get(step);
    if (child) return child;
    child = new PathNode(
      parent === this.rootNode ? undefined : parent,
      step,
      parent.depth + 1,
      this.options.format,
    );
    if (this.nodes < this.maxNodes) {
      this.nodes += 1;
      (parent.children ??= new Map()).set(step, child);
    }
    return child;
  }
}
