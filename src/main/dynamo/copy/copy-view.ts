import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { CopySource } from '../../../shared/ipc/copy';
import type { FilterCondition, ReadSpec } from '../../../shared/ipc/query';
import type { TableSummary } from '../../../shared/ipc/tables';
import type { EntityView, KeyCondition } from '../../../shared/sql/catalog';
import type { CoreContext } from '../../core/context';
import { loadViews } from '../../sql/files/view-store';
import { sqlServiceFor } from '../../sql/service-registry';

/**
 * A SQL entity view as the read the workbench's planner makes of it: the view is its key
 * condition, so an `=` on the partition key is one Query (with the sort condition) and anything
 * else (a detected view's sort-key prefix alone) a Scan filtered by the same conditions.
 *
 * The copy reads the items itself rather than the workbench's rows: the SQL engine holds
 * numbers as values, and prints a nested `-0.000…001` back as `-1E-36`, which is the same number
 * but not the same bytes.
 */
export function viewReadSpec(view: EntityView, summary: TableSummary): ReadSpec {
  const keys = view.index ? summary.indexes.find((i) => i.name === view.index)?.keys : summary.keys;
  if (!keys)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `The view ${view.name} reads the index ${view.index ?? ''}, which ${summary.name} no longer has.`,
    );
  const on = (name: string | undefined): KeyCondition | undefined =>
    view.conditions.find((c) => c.attribute === name);
  const partition = on(keys.partitionKey.name);
  const sort = on(keys.sortKey?.name);
  const index = view.index ? { index: view.index } : {};
  if (partition?.op === '=' && view.conditions.every((c) => c === partition || c === sort))
    return {
      mode: 'query',
      ...index,
      partitionKey: partition.values[0]!,
      ...(sort ? { sortKey: { op: sort.op, value: sort.values[0]!, value2: sort.values[1] } } : {}),
    };
  return {
    mode: 'scan',
    ...index,
    filter: { kind: 'group', join: 'AND', items: view.conditions.map(filterOf) },
  };
}

function filterOf(c: KeyCondition): FilterCondition {
  return { kind: 'condition', path: [c.attribute], op: c.op, value: c.values[0], value2: c.values[1] };
}

/**
 * A view source becomes the read it stands for, once, at the start: the checkpoint keeps that
 * read, so a resume copies what the view meant when the copy began even if it was edited since.
 * The connection's own views win over detected ones, as in SQL.
 */
export async function resolveViewSource(
  ctx: CoreContext,
  source: CopySource,
  summary: TableSummary,
): Promise<{ source: CopySource; note?: string }> {
  if (!('view' in source)) return { source };
  const mine = await loadViews(ctx.dataDir, source.connectionId);
  const matches = (v: EntityView) => v.name === source.view && v.table === source.table;
  let view = mine.find(matches);
  if (!view) {
    const catalog = await sqlServiceFor(ctx).catalog(source.connectionId, mine);
    view = catalog.views.find(matches);
  }
  if (!view)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `There is no SQL view ${source.view} of ${source.table} on this connection.`,
    );
  const spec = viewReadSpec(view, summary);
  return {
    source: { connectionId: source.connectionId, table: source.table, spec },
    note: `Copied the SQL view ${view.name} as a ${spec.mode === 'query' ? 'Query' : 'filtered Scan'}${view.index ? ` of the index ${view.index}` : ''}.`,
  };
}
