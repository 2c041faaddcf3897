/**
 * When a destructive write needs the table name typed. The renderer asks for it and main
 * enforces it with the same rule, so a script talking to browser mode cannot skip it.
 */
export const MANY_ITEMS = 10;

export type DestructiveWrite = 'delete' | 'bulk-delete' | 'bulk-update' | 'import' | 'commit-with-deletes';

export function needsTypedConfirmation(
  write: DestructiveWrite,
  count: number,
  isProduction: boolean,
): boolean {
  if (isProduction) return true;
  if (write === 'bulk-delete' || write === 'commit-with-deletes') return count >= MANY_ITEMS;
  return false;
}

export function confirmationPrompt(write: DestructiveWrite, count: number, table: string): string {
  const what =
    write === 'import'
      ? `importing into ${table}`
      : write === 'bulk-update'
        ? `updating ${count} item${count === 1 ? '' : 's'}`
        : write === 'commit-with-deletes'
          ? `committing ${count} change${count === 1 ? '' : 's'} that delete items`
          : `deleting ${count} item${count === 1 ? '' : 's'}`;
  return `Type the table name "${table}" to confirm ${what}.`;
}
