import type { Buffer } from 'node:buffer';
import type { AttributeValue, Item } from '../../shared/dynamo/attribute-value';
import { WireCursor } from '../resultsets/wire-cursor';
import { isAsciiText, TYPE_INDEX } from './path-stats';
import type { PathNode, PathWalker } from './path-walker';

// Declared here, not imported: see wire-encoder.ts (an imported constant costs a load per compare under tsx).
const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LETTER_S = 0x53;

/** What a wire walk tells the statistics: the PathVisitor's calls, with values as the body holds them. */
export interface WireVisitor {
  /** Whether a top-level attribute is one the item's grouping reads (keys, type attributes). */
  isKey(node: PathNode): boolean;
  /** Before an item's values, with its key attributes parsed (a null-prototype object). */
  startItem(keys: Item): void;
  endItem(keys: Item): void;
  /** A map, list or set at `node`, before its contents. */
  open(node: PathNode, type: number): void;
  /** How many elements the list or set at `node` held, after them. */
  close(node: PathNode, type: number, count: number): void;
  /** A string the body holds without escapes at [start, end); `inSet`: a member of the open set. */
  stringSpan(node: PathNode, body: Buffer, start: number, end: number, inSet: boolean): void;
  string(node: PathNode, s: string, inSet: boolean): void;
  number(node: PathNode, n: string, inSet: boolean): void;
  /** A number the body holds without escapes at [start, end). */
  numberSpan(node: PathNode, body: Buffer, start: number, end: number, inSet: boolean): void;
  binary(node: PathNode, base64: string, inSet: boolean): void;
  bool(node: PathNode, value: boolean): void;
  null(node: PathNode): void;
}

// A value as the walk logs it: what it is, in the low bits, and two flags.
const EV_STRING = 0;
const EV_NUMBER = 1;
const EV_BINARY = 2;
const EV_TRUE = 3;
const EV_FALSE = 4;
const EV_NULL = 5;
/** A map, list or set opens (its type in `starts`). */
const EV_OPEN = 6;
/** A list or set closes (its type in `starts`, its elements in `ends`). */
const EV_CLOSE = 7;
const KIND = 15;
/** The text has escapes: JSON.parse reads it. */
const ESCAPED = 16;
/** A member of the open set. */
const IN_SET = 32;

/**
 * The schema walk over a page's items as DynamoDB sent them (the spans WireItems keeps), without
 * making them objects: parsing a page's items was half of the analysis's CPU, and a string on a
 * path of many distinct values is needed only as bytes to hash and format-check. Names are
 * matched against the trie by their bytes; a value that needs its text (a number, a string of a
 * path still counted exactly, anything escaped) becomes a string when the visitor reads it.
 * An item's values are logged as spans while it is read, and handed to the visitor after it,
 * once its key attributes (parsed as they pass) have said which group they count in: a first
 * pass over each item for its keys cost more than the log.
 * Values reach the visitor in the order the object walk gives them, except that names JSON.parse
 * would move first (array indexes, `"0"`) keep their place in the body: paths are then first seen
 * in another order, which no figure depends on.
 */
export class WireItemWalk extends WireCursor {
  private nodes: PathNode[] = [];
  private kinds = new Uint8Array(256);
  private starts = new Int32Array(256);
  private ends = new Int32Array(256);
  private logged = 0;
  private keys: Item = Object.create(null) as Item;

  constructor(
    body: Buffer,
    private readonly walker: PathWalker,
    private readonly visitor: WireVisitor,
  ) {
    super(body);
  }

  /** The comma-separated items at [from, to) of the body. */
  items(from: number, to: number): void {
    this.pos = from;
    for (;;) {
      this.logged = 0;
      const keys = (this.keys = Object.create(null) as Item);
      this.item();
      this.visitor.startItem(keys);
      this.replay();
      this.visitor.endItem(keys);
      this.skipSpace();
      if (this.pos >= to) return;
      this.expect(COMMA);
    }
  }

  /** An item's members, logged; its key attributes parsed into `keys`. */
  private item(): void {
    const root = this.walker.root;
    this.expect(OPEN_BRACE);
    if (this.isEmpty(CLOSE_BRACE)) return;
    let i = 0;
    do {
      const node = this.member(root, i++);
      if (!this.visitor.isKey(node)) {
        this.value(node);
        continue;
      }
      this.skipSpace();
      const start = this.pos;
      this.value(node);
      this.keys[node.step as string] = JSON.parse(
        this.body.toString('utf8', start, this.pos),
      ) as AttributeValue;
    } while (!this.next(CLOSE_BRACE));
  }

  private log(node: PathNode, kind: number, start: number, end: number): void {
    const at = this.logged++;
    if (at === this.kinds.length) {
      const grown = (from: Int32Array) => {
        const to = new Int32Array(from.length * 2);
        to.set(from);
        return to;
      };
      const kinds = new Uint8Array(at * 2);
      kinds.set(this.kinds);
      this.kinds = kinds;
      this.starts = grown(this.starts);
      this.ends = grown(this.ends);
    }
    this.nodes[at] = node;
    this.kinds[at] = kind;
    this.starts[at] = start;
    this.ends[at] = end;
  }

  /** The logged values to the visitor, in the order they were read. */
  private replay(): void {
    const visitor = this.visitor;
    const body = this.body;
    for (let k = 0; k < this.logged; k++) {
      const node = this.nodes[k] as PathNode;
      const flags = this.kinds[k] as number;
      const start = this.starts[k] as number;
      const end = this.ends[k] as number;
      const inSet = (flags & IN_SET) !== 0;
      switch (flags & KIND) {
        case EV_STRING:
          if (flags & ESCAPED) visitor.string(node, this.escapedText(start, end), inSet);
          else visitor.stringSpan(node, body, start, end, inSet);
          break;
        case EV_NUMBER:
          if (flags & ESCAPED) visitor.number(node, this.escapedText(start, end), inSet);
          else visitor.numberSpan(node, body, start, end, inSet);
          break;
        case EV_BINARY:
          visitor.binary(
            node,
            flags & ESCAPED ? this.escapedText(start, end) : body.toString('utf8', start, end),
            inSet,
          );
          break;
        case EV_TRUE:
          visitor.bool(node, true);
          break;
        case EV_FALSE:
          visitor.bool(node, false);
          break;
        case EV_NULL:
          visitor.null(node);
          break;
        case EV_OPEN:
          visitor.open(node, start);
          break;
        default:
          visitor.close(node, start, end);
      }
    }
  }

  /** A map's members, from its opening brace. */
  private map(node: PathNode): void {
    this.expect(OPEN_BRACE);
    if (this.isEmpty(CLOSE_BRACE)) return;
    let i = 0;
    do this.value(this.member(node, i++));
    while (!this.next(CLOSE_BRACE));
  }

  /** A member's name as its node (the name made a string only when the trie does not hold it there). */
  private member(node: PathNode, i: number): PathNode {
    this.expect(QUOTE);
    const body = this.body;
    const start = this.pos;
    const end = this.stringEnd();
    this.pos = end + 1;
    this.expect(COLON);
    const last = node.recent?.[i];
    if (!this.escaped && last !== undefined && isSameName(last.step, body, start, end)) return last;
    return this.walker.member(
      node,
      i,
      this.escaped ? this.escapedText(start, end) : body.toString('utf8', start, end),
    );
  }

  /** A tagged value `{"S": …}` at `node`, logged. */
  private value(node: PathNode): void {
    this.expect(OPEN_BRACE);
    const type = this.tag();
    this.expect(COLON);
    switch (type) {
      case TYPE_INDEX.S:
        this.scalar(node, EV_STRING);
        break;
      case TYPE_INDEX.N:
        this.scalar(node, EV_NUMBER);
        break;
      case TYPE_INDEX.B:
        this.scalar(node, EV_BINARY);
        break;
      case TYPE_INDEX.BOOL:
        this.log(node, this.literal() ? EV_TRUE : EV_FALSE, 0, 0);
        break;
      case TYPE_INDEX.NULL:
        this.literal();
        this.log(node, EV_NULL, 0, 0);
        break;
      case TYPE_INDEX.M:
        this.log(node, EV_OPEN, type, 0);
        this.map(node);
        break;
      case TYPE_INDEX.L: {
        this.log(node, EV_OPEN, type, 0);
        this.expect(OPEN_BRACKET);
        let count = 0;
        if (!this.isEmpty(CLOSE_BRACKET)) {
          const element = this.walker.element(node);
          do {
            this.value(element);
            count++;
          } while (!this.next(CLOSE_BRACKET));
        }
        this.log(node, EV_CLOSE, type, count);
        break;
      }
      default: {
        // A set: its members are read at the set's own path.
        this.log(node, EV_OPEN, type, 0);
        this.expect(OPEN_BRACKET);
        const kind =
          (type === TYPE_INDEX.SS ? EV_STRING : type === TYPE_INDEX.NS ? EV_NUMBER : EV_BINARY) | IN_SET;
        let count = 0;
        if (!this.isEmpty(CLOSE_BRACKET))
          do {
            this.scalar(node, kind);
            count++;
          } while (!this.next(CLOSE_BRACKET));
        this.log(node, EV_CLOSE, type, count);
      }
    }
    this.expect(CLOSE_BRACE);
  }

  /** A JSON string, logged as its span (between the quotes). */
  private scalar(node: PathNode, kind: number): void {
    this.expect(QUOTE);
    const start = this.pos;
    const end = this.stringEnd();
    this.log(node, this.escaped ? kind | ESCAPED : kind, start, end);
    this.pos = end + 1;
  }

  /** A value's type tag as its TYPE_INDEX. */
  private tag(): number {
    this.expect(QUOTE);
    const body = this.body;
    const start = this.pos;
    const end = this.stringEnd();
    this.pos = end + 1;
    const first = body[start];
    const length = end - start;
    if (length === 1) {
      if (first === 0x53) return TYPE_INDEX.S;
      if (first === 0x4e) return TYPE_INDEX.N;
      if (first === 0x4d) return TYPE_INDEX.M;
      if (first === 0x4c) return TYPE_INDEX.L;
      if (first === 0x42) return TYPE_INDEX.B;
    } else if (length === 2 && body[start + 1] === LETTER_S) {
      if (first === 0x53) return TYPE_INDEX.SS;
      if (first === 0x4e) return TYPE_INDEX.NS;
      if (first === 0x42) return TYPE_INDEX.BS;
    } else if (length === 4 && !this.escaped) {
      const word = body.toString('latin1', start, end);
      if (word === 'BOOL') return TYPE_INDEX.BOOL;
      if (word === 'NULL') return TYPE_INDEX.NULL;
    }
    this.pos = start;
    return this.fail(`unknown type "${body.toString('utf8', start, end)}"`);
  }

  /** `true` or `false`. */
  private literal(): boolean {
    this.skipSpace();
    const body = this.body;
    const p = this.pos;
    if (body[p] === 0x74 && body.toString('latin1', p, p + 4) === 'true') {
      this.pos = p + 4;
      return true;
    }
    if (body[p] === 0x66 && body.toString('latin1', p, p + 5) === 'false') {
      this.pos = p + 5;
      return false;
    }
    return this.fail('expected true or false');
  }
}

/** Whether a name's bytes (no escapes) are this step's text. */
const isSameName = (step: string | number, body: Buffer, start: number, end: number): boolean =>
  typeof step === 'string' && isAsciiText(step, body, start, end);
