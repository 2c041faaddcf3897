import { z } from 'zod';
import { appErrorSchema } from '../errors';
import { requestIdSchema } from './operations';
import { tableSummarySchema } from './tables';

const regionSchema = z.string().regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'a region like eu-west-1');

/** One region's answer to a listing across regions. */
export const regionTablesSchema = z.object({
  region: z.string(),
  /** Absent when the region failed or is not enabled for the account. */
  tables: z.array(tableSummarySchema).optional(),
  /** An opt-in region the account has not enabled: left out, and not an error. */
  isNotEnabled: z.boolean().optional(),
  /** Why this region could not be listed, as a sentence; the other regions still list. */
  error: appErrorSchema.optional(),
});
export type RegionTables = z.infer<typeof regionTablesSchema>;

export const regionListingSchema = z.object({ regions: z.array(regionTablesSchema) });
export type RegionListing = z.infer<typeof regionListingSchema>;

export const tableRegionChannels = {
  /**
   * Lists the tables of several regions of one connection at once, as an operation: progress
   * events say how many regions answered, `done` carries a `regionListing`, `ops:cancel` stops it.
   * A connection with its own endpoint (DynamoDB Local) is one region, whatever is asked.
   */
  'tables:listRegions': {
    input: z.object({
      connectionId: z.string(),
      requestId: requestIdSchema,
      /** The regions to list; absent for every region DynamoDB runs in (not enabled ones left out). */
      regions: z.array(regionSchema).min(1).max(64).optional(),
    }),
    output: z.object({ started: z.boolean(), regions: z.array(z.string()) }),
    done: regionListingSchema,
  },
} as const;
