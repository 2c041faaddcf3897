import { z } from 'zod';
import { itemSchema } from '../dynamo/attribute-value';

export const streamRecordSchema = z.object({
  eventId: z.string(),
  eventName: z.enum(['INSERT', 'MODIFY', 'REMOVE']),
  sequenceNumber: z.string(),
  /** ISO time DynamoDB wrote the record (to the second). */
  at: z.string().optional(),
  keys: itemSchema,
  /** Present per the stream's view type: NEW_IMAGE, OLD_IMAGE or both. */
  oldImage: itemSchema.optional(),
  newImage: itemSchema.optional(),
  sizeBytes: z.number().optional(),
  /** A delete TTL made, not a person or an application. */
  isTtl: z.boolean().optional(),
  shardId: z.string(),
});
export type StreamRecord = z.infer<typeof streamRecordSchema>;
