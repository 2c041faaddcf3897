import { z } from 'zod';

/**
 * Who asked for a write. Every write DynoTable makes names one, so History, the toast and an item
 * editor that another write changed can say where it came from ("your inline edit in the grid").
 */
export const writeSourceSchema = z.enum([
  'editor',
  'grid',
  'bulk',
  'import',
  'copy',
  'purge',
  'fix',
  // The Health tab's TTL fix: the pre-flight's fix machinery, started from another place, so
  // History and an open editor name where the user asked for it.
  'health',
  'undo',
  'agent',
  'mcp',
]);
export type WriteSource = z.infer<typeof writeSourceSchema>;
