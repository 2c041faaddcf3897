import type { Value } from '../../values/value';
import type { BExpr } from '../../binder/bound';
import { codeOfString } from '../column-views';
import type { CompileEnv } from '../compile';
import { emptyIdx, type Frame, identityRows, selectRows } from '../frame';

export interface CodeTest {
  binding: number;
  /** Absent: `accepts` is indexed by table row. */
  codes?: Int32Array;
  /** Per code (or row): 1 when the condition is true for it. Code 0 (NULL) is never true. */
  accepts: Uint8Array;
}

/**
 * Rows of a column that begin with a prefix, one byte a row, kept per decoded column: an entity
 * view's condition (`begins_with(SK, 'ORDER#')`) is the same in every statement that reads the
 * view, so its string tests are done once, not per statement. At most a few prefixes a column.
 */
type PrefixMasks = Map<string, { rows: number; mask: Uint8Array }>;
const prefixMasks = new WeakMap<readonly Value[], PrefixMasks>();
const PREFIXES_KEPT = 8;

function prefixMask(values: readonly Value[], rows: number, prefix: string): Uint8Array {
  let masks = prefixMasks.get(values);
  if (!masks) prefixMasks.set(values, (masks = new Map() as PrefixMasks));
  const found = masks.get(prefix);
  if (found?.rows === rows) return found.mask;
  const mask = new Uint8Array(rows);
  for (let i = 0; i < rows; i++) {
    const v = values[i];
    if (typeof v === 'string' && v.startsWith(prefix)) mask[i] = 1;
  }
  if (masks.size >= PREFIXES_KEPT) masks.delete(masks.keys().next().value!);
  masks.set(prefix, { rows, mask });
  return mask;
}

/**
 * `begins_with(col, 'text')` (or STARTS_WITH) on a top-level attribute: the binding, attribute
 * and prefix; an entity view's condition has this form. The one recogniser of it, for the code
 * filter here and for the rows a table keeps per prefix (execute.ts).
 */
export function prefixCondition(e: BExpr): { binding: number; attr: string; prefix: string } | undefined {
  const isPrefixTest = e.kind === 'call' && (e.name === 'BEGINS_WITH' || e.name === 'STARTS_WITH');
  if (!isPrefixTest || e.args.length !== 2) return undefined;
  const [column, lit] = e.args as [BExpr, BExpr];
  const prefix = textOf(lit);
  if (prefix === undefined || column.kind !== 'col' || column.path.length > 0) return undefined;
  return { binding: column.binding, attr: column.attr, prefix };
}

function beginsWithTest(e: BExpr, env: CompileEnv): CodeTest | undefined {
  const found = prefixCondition(e);
  if (!found) return undefined;
  const { binding, attr, prefix } = found;
  const table = env.tables[binding];
  const stored = table?.prefixMask(attr, prefix);
  if (stored) return { binding, accepts: stored };
  const values = table?.column(attr);
  if (!table || !values) return undefined;
  return { binding, accepts: prefixMask(values, table.rowCount, prefix) };
}

const textOf = (e: BExpr): string | undefined =>
  e.kind === 'lit' && typeof e.value === 'string' ? e.value : undefined;

/**
 * `col = 'text'`, `col <> 'text'`, `col [NOT] IN ('a', 'b')` on a column of strings held as
 * dictionary codes: the answer per distinct string, then a code lookup per row. Anything else
 * (a number literal, a path, a column that is not all strings) is left to the general filter.
 */
export function codeTest(e: BExpr, env: CompileEnv): CodeTest | undefined {
  if (e.kind === 'call') return beginsWithTest(e, env);
  let column: BExpr;
  let texts: string[];
  let isNegated: boolean;
  if (e.kind === 'binary' && (e.op === '=' || e.op === '<>')) {
    const [col, lit] = e.left.kind === 'col' ? [e.left, e.right] : [e.right, e.left];
    const text = textOf(lit);
    if (text === undefined) return undefined;
    [column, texts, isNegated] = [col, [text], e.op === '<>'];
  } else if (e.kind === 'inList') {
    const items = e.items.map(textOf);
    if (items.some((t) => t === undefined)) return undefined;
    [column, texts, isNegated] = [e.operand, items as string[], e.negated];
  } else return undefined;
  if (column.kind !== 'col' || column.path.length > 0) return undefined;
  const dictionary = env.tables[column.binding]?.dictionary(column.attr);
  if (!dictionary) return undefined;
  const accepts = new Uint8Array(dictionary.size).fill(isNegated ? 1 : 0);
  for (const text of texts) accepts[codeOfString(dictionary, text)] = isNegated ? 0 : 1;
  accepts[0] = 0;
  return { binding: column.binding, codes: dictionary.codes, accepts };
}

/**
 * Frame rows (or, without `idx`, table rows) that pass a code test. Written straight into an
 * array as long as the input (a view of its front is the answer): one store per row passing, no
 * growable buffer's call and copies. Each form's loop is a function of its own: in one function,
 * a statement that took a branch the last one had not was deoptimized there (no type feedback).
 */
function passing(test: CodeTest, idx: Int32Array | undefined, length: number): Int32Array {
  const { codes, accepts } = test;
  const rows = new Int32Array(length);
  const n = idx
    ? codes
      ? framePassingCodes(idx, codes, accepts, length, rows)
      : framePassingRows(idx, accepts, length, rows)
    : codes
      ? tablePassingCodes(codes, accepts, length, rows)
      : tablePassingRows(accepts, length, rows);
  return rows.subarray(0, n);
}

function tablePassingCodes(codes: Int32Array, accepts: Uint8Array, length: number, rows: Int32Array): number {
  let n = 0;
  for (let i = 0; i < length; i++) if (accepts[codes[i]!] === 1) rows[n++] = i;
  return n;
}

function tablePassingRows(accepts: Uint8Array, length: number, rows: Int32Array): number {
  let n = 0;
  for (let i = 0; i < length; i++) if (accepts[i] === 1) rows[n++] = i;
  return n;
}

function framePassingCodes(
  idx: Int32Array,
  codes: Int32Array,
  accepts: Uint8Array,
  length: number,
  rows: Int32Array,
): number {
  let n = 0;
  for (let r = 0; r < length; r++) {
    const i = idx[r]!;
    if (i >= 0 && accepts[codes[i]!] === 1) rows[n++] = r;
  }
  return n;
}

function framePassingRows(idx: Int32Array, accepts: Uint8Array, length: number, rows: Int32Array): number {
  let n = 0;
  for (let r = 0; r < length; r++) {
    const i = idx[r]!;
    if (i >= 0 && accepts[i] === 1) rows[n++] = r;
  }
  return n;
}

/**
 * Applies the conditions that codeTest can answer, each a pass over codes, and returns the rest
 * for the general filter, which then evaluates them on the rows left.
 */
export function filterByCodes(
  frame: Frame,
  conditions: BExpr[],
  env: CompileEnv,
): { frame: Frame; rest: BExpr[] } {
  // After GROUP BY a frame's rows are groups, not table rows: HAVING reads slots, never codes.
  if (env.slots) return { frame, rest: conditions };
  const rest: BExpr[] = [];
  let narrowed = frame;
  for (const condition of conditions) {
    const test = codeTest(condition, env);
    const idx = test ? narrowed.idx[test.binding] : undefined;
    if (!test || !idx || idx.length < narrowed.length) {
      rest.push(condition);
      continue;
    }
    const rows = passing(test, idx, narrowed.length);
    narrowed = rows.length === narrowed.length ? narrowed : selectRows(narrowed, rows);
  }
  return { frame: narrowed, rest };
}

/**
 * The rows of one binding's table that pass its own conditions: the first condition a code test
 * answers picks table rows straight from the codes (no frame of every row to narrow), then the
 * others narrow that. Without such a condition, every row, for the general filter: the table's
 * own list of them (ColumnarTable.allRows), not one numbered again per statement (4% of the
 * two-table correlated statement), and the list by which a loop knows it may read the table's
 * rows directly (correlated-average.ts).
 */
export function scanFilter(
  bindingCount: number,
  binding: number,
  rowCount: number,
  conditions: BExpr[],
  env: CompileEnv,
): { frame: Frame; rest: BExpr[] } {
  const first = conditions.findIndex((c) => codeTest(c, env)?.binding === binding);
  const table = env.tables[binding];
  const rows =
    first >= 0
      ? passing(codeTest(conditions[first]!, env)!, undefined, rowCount)
      : table?.rowCount === rowCount
        ? table.allRows()
        : identityRows(rowCount);
  const idx = Array.from({ length: bindingCount }, (_, b) => (b === binding ? rows : emptyIdx()));
  if (first < 0) return { frame: { length: rowCount, idx }, rest: conditions };
  const others = conditions.filter((_, i) => i !== first);
  return filterByCodes({ length: rows.length, idx }, others, env);
}
