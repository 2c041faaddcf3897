import type { CoreContext } from '../core/context';
import type { OpenedExport } from './export-open';

/**
 * Where an opened export's files are, so SQL can read them again without the table: an S3
 * bucket/prefix read as the connection that opened it, or a folder on this machine.
 */
export type ExportLocation =
  { kind: 's3'; connectionId: string; bucket: string; prefix: string } | { kind: 'folder'; path: string };

interface Entry {
  opened: OpenedExport;
  location: ExportLocation;
}

/**
 * Exports opened in this core (one per result set), newest first: what `exports:opened` lists
 * and SQL's `FROM export."…"` looks names and ARNs up in.
 */
const openedByCore = new WeakMap<CoreContext, Entry[]>();

export function rememberOpened(ctx: CoreContext, opened: OpenedExport, location: ExportLocation): void {
  const list = openedByCore.get(ctx) ?? [];
  openedByCore.set(ctx, [
    { opened, location },
    ...list.filter((o) => o.opened.resultSetId !== opened.resultSetId),
  ]);
}

export function openedExports(ctx: CoreContext): OpenedExport[] {
  return (openedByCore.get(ctx) ?? []).map((entry) => entry.opened);
}

/** Each opened export with where its files are, newest first (one per name: the newest wins). */
export function openedLocations(ctx: CoreContext): Entry[] {
  const seen = new Set<string>();
  return (openedByCore.get(ctx) ?? []).filter((entry) => {
    if (seen.has(entry.opened.name)) return false;
    seen.add(entry.opened.name);
    return true;
  });
}
