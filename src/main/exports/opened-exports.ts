import type { OpenedExport } from './export-open';
import type { CoreContext, ServiceSlot } from '../core/context';

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
 * and SQL's `FROM export."…"` looks names and ARNs up in. CoreServices owns the one list.
 */
export class OpenedExports {
  private entries: Entry[] = [];

  remember(opened: OpenedExport, location: ExportLocation): void {
    this.entries = [
      { opened, location },
      ...this.entries.filter((o) => o.opened.resultSetId !== opened.resultSetId),
    ];
  }

  list(): OpenedExport[] {
    return this.entries.map((entry) => entry.opened);
  }

  /** Each opened export with where its files are, newest first (one per name: the newest wins). */
  locations(): Entry[] {
    const seen = new Set<string>();
    return this.entries.filter((entry) => {
      if (seen.has(entry.opened.name)) return false;
      seen.add(entry.opened.name);
      return true;
    });
  }
}

/** Exports opened in this core, newest first: the Exports view's list and SQL's `export."…"`. */
const openedExportsSlot: ServiceSlot<OpenedExports> = {
  name: 'openedExports',
  create: () => new OpenedExports(),
  isUsableWhenClosed: true,
};

export function openedExports(ctx: CoreContext): OpenedExports {
  return ctx.services.get(openedExportsSlot);
}
