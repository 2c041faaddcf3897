import { emptyIdx, type Frame, identityFrame } from './frame';

/**
 * Rows in flight that an operator can read a batch at a time instead of as one frame. A frame
 * of a join or of a whole table is the largest thing a statement allocates, and an aggregate
 * reads each of its rows once: reading them in batches (small arrays reused from one batch to
 * the next, so they stay in cache) saves writing every row number out and reading it back. Any
 * operator that needs the rows together (sorts, windows, outputs) asks for `frame()`.
 */
export interface FrameStream {
  /** Every row as one frame, in the order the batches give them. */
  frame(): Frame;
  /**
   * Visits the rows in frame order, at most BATCH_ROWS at a time. A batch is a Frame whose
   * arrays are reused once `visit` returns; a binding not in these rows has an empty array.
   */
  batches(visit: (batch: Frame) => void): void;
  /**
   * Set by a join whose every probe row matches at most one build row (a foreign key joined to
   * the key it names): the join as a lookup, which an aggregate grouping by build-side columns
   * reads without pairs (aggregate-batches.ts). Undefined when it is not such a join.
   */
  manyToOne?: () => ManyToOne | undefined;
}

/** A join of two tables' rows where a probe row finds its one build row by its key number. */
export interface ManyToOne {
  probeBinding: number;
  buildBinding: number;
  /** The probe side's table rows, in the order the join gives them. */
  probeRows: Int32Array;
  /** Key number per probe table row (-1: NULL or missing). */
  probeNumbers: Int32Array;
  /** Per key number, the build table row holding it, -1 when none does. */
  buildRowOfKey: Int32Array;
  /** LEFT JOIN: a probe row with no build row stays, with the build side's columns NULL. */
  keepUnmatched: boolean;
}

/** Large enough that a batch's per-batch work is noise, small enough to stay in the L1/L2 cache. */
export const BATCH_ROWS = 2048;

/** A frame that is already made: its batches are views of its own arrays, nothing is copied. */
export function streamOf(frame: Frame): FrameStream {
  return {
    frame: () => frame,
    batches: (visit) => {
      for (let start = 0; start < frame.length; start += BATCH_ROWS) {
        const end = Math.min(frame.length, start + BATCH_ROWS);
        visit({
          length: end - start,
          idx: frame.idx.map((rows) => (rows.length === 0 ? rows : rows.subarray(start, end))),
        });
      }
    },
  };
}

/** Every row of one binding's table, with no condition: no frame of 0 … rowCount - 1 is made. */
export function allRowsStream(bindingCount: number, binding: number, rowCount: number): FrameStream {
  return {
    frame: () => identityFrame(bindingCount, binding, rowCount),
    batches: (visit) => {
      const rows = new Int32Array(Math.min(BATCH_ROWS, rowCount));
      const idx = Array.from({ length: bindingCount }, emptyIdx);
      idx[binding] = rows;
      for (let start = 0; start < rowCount; start += BATCH_ROWS) {
        const length = Math.min(BATCH_ROWS, rowCount - start);
        for (let r = 0; r < length; r++) rows[r] = start + r;
        visit({ length, idx });
      }
    },
  };
}
