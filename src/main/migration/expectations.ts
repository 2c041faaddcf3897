import { AppFailure, ErrorCodes } from '../../shared/errors';
import {
  type Acknowledgement,
  type DateSetting,
  dateStorageSchema,
  expectationsFileSchema,
} from '../../shared/ipc/migration';

/**
 * Acknowledged model settings, as a CI job states them: `--expect PATH=STORAGE` (repeatable) and
 * an expectations file kept next to the models, the same format the app keeps its own
 * acknowledgements in (./acknowledgements.ts). Paths are written as the report writes them.
 *
 *   { "table": "Orders", "dateStorage": [{ "path": "occurredAt", "storage": "iso" }] }
 */

const STORAGES = dateStorageSchema.options.join(', ');

export function parseExpectFlag(text: string): DateSetting {
  // The last "=": a path may itself contain one (["a=b"]), a storage never does.
  const at = text.lastIndexOf('=');
  const path = text.slice(0, at);
  const storage = dateStorageSchema.safeParse(text.slice(at + 1));
  if (at <= 0 || !storage.success)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `--expect wants PATH=STORAGE with STORAGE one of ${STORAGES} (for example occurredAt=iso), not "${text}".`,
    );
  return { path, storage: storage.data };
}

export function parseExpectationsFile(text: string, fileName: string, table: string): Acknowledgement[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AppFailure(ErrorCodes.invalidInput, `The expectations file ${fileName} is not valid JSON.`);
  }
  const parsed = expectationsFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `The expectations file ${fileName} does not have the expected shape (${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'unexpected'}); it wants {"dateStorage": [{"path": "occurredAt", "storage": "iso"}]}.`,
    );
  }
  if (parsed.data.table !== undefined && parsed.data.table !== table)
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `The expectations file ${fileName} is for the table ${parsed.data.table}, not ${table}.`,
    );
  return parsed.data.dateStorage;
}

/** One setting per path; a later one (a flag after the file) wins. */
export function mergeExpectations<T extends DateSetting>(...lists: (readonly T[])[]): T[] {
  const byPath = new Map<string, T>();
  for (const list of lists) for (const e of list) byPath.set(e.path, e);
  return [...byPath.values()];
}
