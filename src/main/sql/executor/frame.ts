/**
 * Rows in flight, as row numbers into each binding's table (-1: no row, the optional side of a
 * LEFT JOIN). Filters, joins and sorts move these small integers around; attribute values are
 * read from the columns only when an expression needs them.
 */
export interface Frame {
  length: number;
  /** One array per binding of the SELECT (empty for bindings not part of this frame). */
  idx: Int32Array[];
}

const EMPTY = new Int32Array(0);

export function emptyIdx(): Int32Array {
  return EMPTY;
}

/** A growable Int32Array. */
export class IntBuffer {
  private data: Int32Array;
  length = 0;

  constructor(capacity = 1024) {
    this.data = new Int32Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }

  toArray(): Int32Array {
    return this.data.subarray(0, this.length);
  }
}

/** 0, 1, … count - 1 (a plain loop: Int32Array.from with a mapper is several times slower). */
export function identityRows(count: number): Int32Array {
  const rows = new Int32Array(count);
  for (let i = 0; i < count; i++) rows[i] = i;
  return rows;
}

export function identityFrame(bindingCount: number, binding: number, rowCount: number): Frame {
  const idx = Array.from({ length: bindingCount }, emptyIdx);
  idx[binding] = identityRows(rowCount);
  return { length: rowCount, idx };
}

/** Keeps the frame rows listed in `rows` (in that order). */
export function selectRows(frame: Frame, rows: Int32Array): Frame {
  const idx = frame.idx.map((column) => {
    if (column.length === 0) return column;
    const out = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) out[i] = column[rows[i]!]!;
    return out;
  });
  return { length: rows.length, idx };
}

/** Keeps rows where `keep(r)` is true. */
export function filterFrame(frame: Frame, keep: (r: number) => boolean): Frame {
  const rows = new IntBuffer(frame.length >> 2);
  for (let r = 0; r < frame.length; r++) if (keep(r)) rows.push(r);
  if (rows.length === frame.length) return frame;
  return selectRows(frame, rows.toArray());
}
