import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { RegionListing, RegionTables } from '../../shared/ipc/table-regions';
import type { OperationOutcome, OperationRun } from '../core/operations';
import { toAppError } from '../core/to-app-error';
import { listTables } from './tables';

/** Regions listed at once; each describes its tables four at a time (tables.ts). */
const REGION_CONCURRENCY = 4;
/** One region that hangs must not hold the others' answer for ever. */
const REGION_DEADLINE_MS = 120_000;

/**
 * What an opt-in region the account has not enabled answers: the credentials are unknown there.
 * It is left out of the list, not reported as a failure.
 */
const NOT_ENABLED = new Set(['UnrecognizedClientException', 'InvalidSignatureException']);

/**
 * The tables of several regions, listed in parallel. A region that fails keeps its error as a
 * sentence and the others still list; a cancel stops every region's calls.
 */
export async function listAcrossRegions(
  clientIn: (region: string) => Promise<DynamoDBClient>,
  regions: readonly string[],
  { signal, emit }: OperationRun,
): Promise<OperationOutcome<'tables:listRegions'> & { value: RegionListing }> {
  const answers: RegionTables[] = [];
  let answered = 0;
  const progress = () => ({
    items: answers.reduce((sum, r) => sum + (r.tables?.length ?? 0), 0),
    pages: answered,
    consumedCapacity: 0,
    fraction: answered / regions.length,
    message: `${answered} of ${regions.length} regions answered…`,
  });
  const one = async (region: string): Promise<RegionTables> => {
    const deadline = AbortSignal.timeout(REGION_DEADLINE_MS);
    try {
      const client = await clientIn(region);
      return { region, tables: await listTables(client, AbortSignal.any([signal, deadline])) };
    } catch (error) {
      if (signal.aborted) throw error;
      const name = (error as { name?: unknown }).name;
      if (typeof name === 'string' && NOT_ENABLED.has(name)) return { region, isNotEnabled: true };
      if (deadline.aborted)
        return {
          region,
          error: {
            code: 'TimedOut',
            message: `${region} did not answer within ${REGION_DEADLINE_MS / 1000} seconds. The other regions are listed; refresh to try ${region} again.`,
            retryable: true,
          },
        };
      const appError = toAppError(error);
      return { region, error: { ...appError, message: `${region}: ${appError.message}` } };
    }
  };
  const queue = regions.entries();
  const lane = async () => {
    for (const [index, region] of queue) {
      if (signal.aborted) return;
      answers[index] = await one(region);
      answered += 1;
      emit({ type: 'progress', progress: progress() });
    }
  };
  await Promise.all(Array.from({ length: Math.min(REGION_CONCURRENCY, regions.length) }, lane));
  return { progress: progress(), value: { regions: answers.filter(Boolean) } };
}
