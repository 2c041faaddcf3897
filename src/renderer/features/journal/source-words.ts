import type { WriteSource } from '../../../shared/ipc/write-source';

/**
 * Who made a write, as the end of "This item was changed by …". Main names the source of every
 * write it makes; a `written` event that names none carries what a refused write found stored,
 * someone else's change.
 */
const BY: Record<WriteSource, [changed: string, deleted: string]> = {
  editor: ['a save in the item editor', 'a delete in the item editor'],
  grid: ['your inline edit in the grid', 'a delete committed from the grid'],
  bulk: ['a bulk update', 'a bulk delete'],
  import: ['an import', 'an import'],
  copy: ['a copy into this table', 'a copy into this table'],
  purge: ['a purge of the table', 'a purge of the table'],
  fix: ["the pre-flight's fix", "the pre-flight's fix"],
  health: ["the Health tab's TTL fix", "the Health tab's TTL fix"],
  undo: ['an undo', 'an undo'],
  agent: ['the agent', 'the agent'],
  mcp: ['an MCP client', 'an MCP client'],
};

export function writtenBy(source: WriteSource | undefined, isDeleted: boolean): string {
  if (!source) return 'someone or something else';
  return BY[source][isDeleted ? 1 : 0];
}
