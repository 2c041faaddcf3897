import { z } from 'zod';

/**
 * A file in the data folder that could not be read and was set aside (renamed, kept as it was)
 * so the rest keeps working: which file, where it is now, and a sentence for the user saying
 * what it held and what DynoTable did instead.
 */
export const setAsideNoticeSchema = z.object({
  /** The path the file had. */
  file: z.string(),
  /** The path it was renamed to, in the same folder, bytes unchanged. */
  keptAs: z.string(),
  message: z.string(),
});
export type SetAsideNotice = z.infer<typeof setAsideNoticeSchema>;
