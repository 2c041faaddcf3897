import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { ChannelInput, ChannelOutput } from '../../shared/ipc/contract';
import type { FixPlanSummary } from '../../shared/ipc/migration';
import type { CoreContext } from '../core/context';
import { resolveTarget } from '../dynamo/items/item-access';
import { buildFixPlan } from './fix-build';
import { runFixPlan } from './fix-run';
import { assertNotRunning, migrationStore, withCursor } from './service';
import { newMigrationId } from './store';
import type { OperationOutcome } from '../core/operations';
import { runningJobs } from '../core/running-jobs';

async function isReadOnly(ctx: CoreContext, connectionId: string): Promise<boolean> {
  return (await ctx.connections.get(connectionId)).readOnly;
}

function readOnlyFailure(): AppFailure {
  return new AppFailure(
    ErrorCodes.readOnly,
    'This connection is read-only, so the fix cannot write. Use the dry run to review the plan, then run it from a connection that may write.',
  );
}

/** The dry run, as an operation: nothing is written to the table. Allowed on read-only connections. */
export async function startFixPlan(
  input: ChannelInput<'migration:fixPlan'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:fixPlan'>> {
  assertNotRunning(ctx, input.requestId);
  const store = migrationStore(ctx);
  const client = await ctx.clients.dynamo(input.connectionId);
  const readOnly = await isReadOnly(ctx, input.connectionId);
  const planId = newMigrationId('plan');
  ctx.operations.start(
    input.requestId,
    async ({ signal, emit }): Promise<OperationOutcome<'migration:fixPlan'>> => {
      try {
        const built = await buildFixPlan({
          client,
          table: input.table,
          policy: input.policy,
          convertDates: input.convertDates ?? false,
          datePaths: input.datePaths,
          ...(input.ttlOnly ? { ttlOnly: true } : {}),
          // The rewrites `fix-migration --bool-path` and friends make, on the paths the user picked.
          booleanPaths: input.booleanPaths,
          documentPaths: input.documentPaths,
          ...(input.ttlToSeconds ? { ttlToSeconds: true } : {}),
          setToListPaths: input.setToListPaths,
          listToSetPaths: input.listToSetPaths,
          segments: input.segments,
          limit: input.limit,
          signal,
          planFile: await store.planFile(planId),
          onProgress: (progress) => emit({ type: 'progress', progress }),
        });
        const summary: FixPlanSummary = {
          planId,
          connectionId: input.connectionId,
          table: input.table,
          policy: input.policy,
          convertDates: input.convertDates ?? false,
          createdAt: new Date().toISOString(),
          readOnly,
          ...built,
          ...(input.ttlOnly ? { ttlOnly: true } : {}),
        };
        await store.savePlanSummary(summary);
        return { progress: { items: built.itemsScanned, pages: 0, consumedCapacity: 0 }, value: summary };
      } catch (error) {
        throw withCursor(error, planId);
      }
    },
  );
  return { planId };
}

/** Runs or resumes a plan. Refused early on read-only connections (main's guard would refuse each write anyway). */
export async function startFixRun(
  input: ChannelInput<'migration:fixRun'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:fixRun'>> {
  assertNotRunning(ctx, input.requestId);
  const store = migrationStore(ctx);
  const plan = await store.loadPlanSummary(input.planId);
  if (plan.connectionId !== input.connectionId)
    throw new AppFailure(ErrorCodes.invalidInput, 'That plan was made on another connection.');
  if (await isReadOnly(ctx, input.connectionId)) throw readOnlyFailure();
  const job = {
    kind: 'fix',
    id: plan.planId,
    requestId: input.requestId,
    busy: 'That plan is already running.',
  } as const;
  runningJobs(ctx).assertIdle(job.kind, job.id, job.busy);
  const client = await ctx.clients.dynamo(input.connectionId);
  // The Health tab's TTL fix runs the same plans: History and an open editor say where it came from.
  const target = await resolveTarget(ctx, input.connectionId, plan.table, plan.ttlOnly ? 'health' : 'fix');
  const [planFile, resultsFile] = [await store.planFile(plan.planId), await store.resultsFile(plan.planId)];
  runningJobs(ctx).start(job, async ({ signal, emit }): Promise<OperationOutcome<'migration:fixRun'>> => {
    try {
      const result = await runFixPlan({
        client,
        target,
        table: plan.table,
        planId: plan.planId,
        reason: plan.ttlOnly
          ? `Health fix of ${plan.table}: TTL values in milliseconds written as seconds`
          : `Pre-flight fix of ${plan.table}`,
        planFile,
        resultsFile,
        total: plan.updates,
        signal,
        writesPerSecond: input.writesPerSecond,
        onProgress: (progress) => {
          emit({ type: 'progress', progress });
        },
      });
      await store.saveFixResult(result);
      const processed = result.written + result.skippedChanged + result.failed;
      return {
        progress: { items: processed, pages: 0, consumedCapacity: result.consumedWriteCapacity },
        value: result,
      };
    } catch (error) {
      throw withCursor(error, plan.planId);
    }
  });
  return { planId: plan.planId };
}

export async function fixStatus(
  input: ChannelInput<'migration:fixStatus'>,
  ctx: CoreContext,
): Promise<ChannelOutput<'migration:fixStatus'>> {
  const store = migrationStore(ctx);
  const [plan, result] = await Promise.all([
    store.loadPlanSummary(input.planId),
    store.loadFixResult(input.planId),
  ]);
  return { plan, result: result ?? null };
}
