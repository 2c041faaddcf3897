/**
 * "Segments", said the same way wherever a Scan reads in parallel (Schema, Pre-flight, Copy, the
 * SQL plan): a plain label with DynamoDB's own word after it, and what it changes in a tooltip.
 */
export const PARALLEL_READERS = 'Parallel readers (Scan segments)';

export const SEGMENTS_HELP =
  'DynamoDB splits a Scan into segments that are read side by side: more readers finish sooner and spend read capacity faster.';
