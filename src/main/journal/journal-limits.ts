import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { JournalLimits } from '../../shared/ipc/journal';
import { isMissingFile } from '../files/atomic-file';
import { dataFolder } from '../files/data-folder';

export const DEFAULT_LIMITS: JournalLimits = { maxEntries: 200, maxAgeDays: 30, maxMegabytes: 500 };

const limitsFileSchema = z
  .object({
    maxEntries: z.number().int().min(1).max(100_000),
    maxAgeDays: z.number().min(1).max(36_500),
    maxMegabytes: z.number().min(1).max(1_000_000),
  })
  .partial()
  .strict();

/** `<data>/journal/settings.json`: the user's bounds on each connection's undo journal. */
export function limitsFile(dataDir: string): string {
  return dataFolder.journalSettings(dataDir);
}

export interface LimitsRead {
  limits: JournalLimits;
  /** Why the settings file was not used (the defaults were), in a sentence. */
  problem?: string;
}

/**
 * The journal's bounds, read on every list and every finished entry so an edit of the file
 * takes effect without a restart. A missing file means the defaults; a file that cannot be
 * used means the defaults too, and says why, so an edit with a typo is never silently ignored.
 */
export async function readLimits(dataDir: string): Promise<LimitsRead> {
  const file = limitsFile(dataDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isMissingFile(error)) return { limits: DEFAULT_LIMITS };
    return {
      limits: DEFAULT_LIMITS,
      problem: `${file} could not be read, so the journal keeps its default bounds.`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return {
      limits: DEFAULT_LIMITS,
      problem: `${file} is not valid JSON, so the journal keeps its default bounds.`,
    };
  }
  const parsed = limitsFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `"${issue.path.join('.')}"` : 'the file';
    return {
      limits: DEFAULT_LIMITS,
      problem: `${file}: ${where} ${issue?.message ?? 'is not valid'} (allowed: maxEntries 1–100000, maxAgeDays 1–36500, maxMegabytes 1–1000000), so the journal keeps its default bounds.`,
    };
  }
  return { limits: { ...DEFAULT_LIMITS, ...parsed.data } };
}

export interface KeptEntry {
  id: string;
  at: string;
  /** Bytes of the entry's files together. */
  bytes: number;
}

/**
 * The entries past the bounds, given newest first: past the count, older than the age, or
 * past the size once the newer ones are counted. The newest entry is always kept, however
 * large, so the write just made can be undone.
 */
export function pastLimits(entries: KeptEntry[], limits: JournalLimits, now = Date.now()): KeptEntry[] {
  const oldest = now - limits.maxAgeDays * 86_400_000;
  const maxBytes = limits.maxMegabytes * 1024 * 1024;
  let bytes = 0;
  return entries.filter((entry, index) => {
    bytes += entry.bytes;
    if (index === 0) return false;
    return index >= limits.maxEntries || Date.parse(entry.at) < oldest || bytes > maxBytes;
  });
}
