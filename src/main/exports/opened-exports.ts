import type { CoreContext } from '../core/context';
import type { OpenedExport } from './export-open';

/**
 * Exports opened in this core (one per result set), newest first: what `exports:opened` lists
 * and SQL's `FROM export."…"` looks names and ARNs up in. Dropped result sets leave the list
 * when they are next looked up.
 */
const openedByCore = new WeakMap<CoreContext, OpenedExport[]>();

export function rememberOpened(ctx: CoreContext, opened: OpenedExport): void {
  const list = openedByCore.get(ctx) ?? [];
  openedByCore.set(ctx, [opened, ...list.filter((o) => o.resultSetId !== opened.resultSetId)]);
}

export function openedExports(ctx: CoreContext): OpenedExport[] {
  return [...(openedByCore.get(ctx) ?? [])];
}

/** The newest opened export with this name (`Orders-2026-12-01`) or export ARN. */
export function findOpened(ctx: CoreContext, nameOrArn: string): OpenedExport | undefined {
  return openedByCore.get(ctx)?.find((o) => o.name === nameOrArn || o.exportArn === nameOrArn);
}
