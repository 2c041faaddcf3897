import { AppFailure, ErrorCodes } from '../../../shared/errors';
import type { CopyStartInput } from '../../../shared/ipc/copy';
import type { TableSummary } from '../../../shared/ipc/tables';
import { RateLimiter } from '../rate-limiter';

export interface CopyLimit {
  limiter: RateLimiter;
  /** What the limiter counts: items, or capacity units from DynamoDB's ConsumedCapacity. */
  unit: 'items' | 'capacity';
  note?: string;
}

const percent = (share: number): string => `${Math.round(share * 1000) / 10}%`;

/** Refused in main before anything is read: two limits for one side cannot both hold. */
export function rateProblem(
  input: Pick<CopyStartInput, 'readRate' | 'readShare' | 'writeRate' | 'writeShare' | 'source'>,
): string | undefined {
  if (input.readRate !== undefined && input.readShare !== undefined)
    return 'Give the read limit as items per second or as a share of read capacity, not both.';
  if (input.writeRate !== undefined && input.writeShare !== undefined)
    return 'Give the write limit as items per second or as a share of write capacity, not both.';
  if (input.readShare !== undefined && 'resultSetId' in input.source)
    return 'A result set is copied from memory and reads no capacity: a share of read capacity does not apply.';
  return undefined;
}

/**
 * A side's limit: items per second as given, or a share of the table's provisioned capacity
 * (DescribeTable's RCU/WCU), counted in the capacity units DynamoDB reports each call consumed.
 * An on-demand table has no capacity to take a share of (DynamoDB adds capacity as a copy asks
 * for it, and bills it), so a share there is refused with a sentence rather than guessed.
 */
export function copyLimit(
  side: 'read' | 'write',
  summary: TableSummary,
  rate: number | undefined,
  share: number | undefined,
): CopyLimit | undefined {
  if (share === undefined)
    return rate === undefined ? undefined : { limiter: new RateLimiter(rate), unit: 'items' };
  const units = side === 'read' ? summary.readCapacity : summary.writeCapacity;
  const name = side === 'read' ? 'read capacity units (RCU)' : 'write capacity units (WCU)';
  if (summary.billingMode === 'PAY_PER_REQUEST' || !units)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `${summary.name} is on-demand: it has no provisioned ${name} to take a share of, and DynamoDB adds capacity as the copy asks for more (and bills it). Give a ${side} rate in items per second instead.`,
    );
  const perSecond = share * units;
  return {
    limiter: new RateLimiter(perSecond),
    unit: 'capacity',
    note: `${side === 'read' ? 'Read' : 'Wrote'} at most ${percent(share)} of ${summary.name}'s ${units} provisioned ${name}: ${Math.round(perSecond * 100) / 100} per second, counted from DynamoDB's ConsumedCapacity.`,
  };
}
