import type { SqlPlan } from '../../shared/sql/plan';
import type { TableSummary } from '../../shared/ipc/tables';
import { tableDetails } from '../dynamo/table-metadata';
import { partitionAttributes, sortAttributes } from '../../shared/dynamo/key-model';
import { loadViews } from '../sql/files/view-store';
import { sqlServiceFor } from '../sql/service-registry';
import { checkTables, selectStatement } from '../agent/sql-executor';
import { requireTable, type ToolExecutor, type ToolOutcome, type ToolSession } from '../agent/tool-runner';

/** Refused reads carry this code, so an agent can tell "not allowed here" from a failure. */
export const SCAN_REFUSED = 'ScanRefused';

/** The reads that would serve a request instead of a Scan: the table's key, then each index's. */
export function keyAlternatives(summary: TableSummary): string[] {
  const sources = [{ via: `the table ${summary.name}`, keys: summary.keys }].concat(
    summary.indexes.map((i) => ({ via: `the ${i.kind} ${i.name}`, keys: i.keys })),
  );
  return sources.map(({ via, keys }) => {
    // Every partition attribute of a multi-attribute key, and its sort attributes in order.
    const partition = partitionAttributes(keys)
      .map((a) => `${a.name} = <value>`)
      .join(' AND ');
    const sorts = sortAttributes(keys).map((a) => a.name);
    const sort =
      sorts.length > 1
        ? `, optionally with conditions on ${sorts.join(', then ')} from the first, none skipped (= on each but the last)`
        : sorts.length === 1
          ? `, optionally with a condition on ${sorts[0]}`
          : '';
    return `Query ${via} with ${partition}${sort}`;
  });
}

async function summaryOf(session: ToolSession, table: string): Promise<TableSummary> {
  const known = session.tables.get(table);
  if (known) return known;
  const client = await session.ctx.clients.dynamo(session.connection.id);
  const { summary } = await tableDetails(client, table, session.signal);
  session.tables.set(summary.name, summary);
  return summary;
}

function refusal(summary: TableSummary, what: string): ToolOutcome {
  const instead = keyAlternatives(summary);
  const error = `Refused: ${what} would Scan ${summary.name}, reading it whole, and this connection does not allow Scans. Instead: ${instead.join('; or ')}. The explain tool tells which index a SELECT's condition would use before reading.`;
  return {
    result: { status: 'error', json: { error, code: SCAN_REFUSED, instead } },
    step: { summary: 'a Scan, refused on this connection' },
    refused: true,
  };
}

/** The planner's reading of a SELECT, with this call's items budget as its bound; reads nothing. */
async function planOf(session: ToolSession, input: Record<string, unknown>): Promise<SqlPlan> {
  const statement = selectStatement(input);
  const views = await loadViews(session.ctx.dataDir, session.connection.id);
  const service = sqlServiceFor(session.ctx);
  const plan = await service.plan(session.connection.id, statement, views, session.budget.remainingItems());
  checkTables(session, plan);
  return plan;
}

const freshScans = (plan: SqlPlan) => plan.fetches.filter((f) => !f.cached && f.call.operation === 'Scan');

/** The scan tool where Scans are refused: it says which Query would serve instead. */
export const refusedScan: ToolExecutor = (input, session) =>
  Promise.resolve(refusal(requireTable(session, input.table), 'the scan tool'));

/** run_sql where Scans are refused: planned first, and refused before any read if it would Scan. */
export function scanlessSql(runSql: ToolExecutor): ToolExecutor {
  return async (input, session, stepId) => {
    const scan = freshScans(await planOf(session, input))[0];
    if (scan) return refusal(await summaryOf(session, scan.call.table), 'this statement');
    return runSql(input, session, stepId);
  };
}

/** explain: what a SELECT would read, cost and whether this connection's rules let it run. */
export function explainTool(allowScans: boolean): ToolExecutor {
  return async (input, session) => {
    const plan = await planOf(session, input);
    const fresh = plan.fetches.filter((f) => !f.cached);
    const items = fresh.reduce((n, f) => n + f.estimate.itemsRead, 0);
    const rcu = fresh.reduce((n, f) => n + f.estimate.rcu, 0);
    const { limits } = session.budget;
    const scans = freshScans(plan);
    const insteadOf = new Map<string, string[]>();
    for (const f of scans)
      insteadOf.set(f.call.table, keyAlternatives(await summaryOf(session, f.call.table)));
    const budget =
      rcu > limits.readCapacity
        ? `run_sql would refuse it: about ${rcu.toFixed(1)} RCU is more than the ${limits.readCapacity} RCU one call may consume.`
        : items > limits.itemsRead
          ? `The items budget (${limits.itemsRead} per call) would cut it short: it reads about ${Math.round(items)} items.`
          : undefined;
    return {
      result: {
        status: 'success',
        json: {
          reads: plan.fetches.map((f) => ({
            operation: f.call.operation,
            table: f.call.table,
            ...(f.call.index ? { index: f.call.index } : {}),
            ...(f.call.keyCondition ? { keyCondition: f.call.keyCondition } : {}),
            ...(f.call.filter ? { filter: f.call.filter } : {}),
            why: f.reason,
            estimatedItemsRead: Math.round(f.estimate.itemsRead),
            estimatedReadCapacity: f.estimate.rcu,
            ...(f.cached ? { cached: true } : {}),
          })),
          estimatedItemsRead: Math.round(items),
          estimatedReadCapacity: rcu,
          budget: {
            maxItems: limits.itemsRead,
            maxRcu: limits.readCapacity,
            ...(budget ? { cut: budget } : {}),
          },
          ...(scans.length > 0 && !allowScans
            ? {
                refused: 'It would Scan, and this connection does not allow Scans.',
                instead: Object.fromEntries(insteadOf),
              }
            : {}),
          notes: plan.notes,
        },
      },
      step: { summary: `${fresh.length} read${fresh.length === 1 ? '' : 's'}, about ${rcu.toFixed(1)} RCU` },
    };
  };
}
