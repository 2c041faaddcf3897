import { AppFailure, ErrorCodes } from '../../shared/errors';
import {
  type Acknowledgement,
  type DateSetting,
  dateStorageSchema,
  expectationsFileSchema,
  type FindingAcknowledgement,
  findingKindSchema,
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

/**
 * `--expect KIND:PATH` acknowledges a finding (booleanAsString:active); anything else is a
 * date setting. The kind comes first, so a path may hold ":" and "=" (["a:b=c"]).
 */
export function parseExpectArgument(
  text: string,
): { date: DateSetting } | { finding: FindingAcknowledgement } {
  const colon = text.indexOf(':');
  const kind = findingKindSchema.safeParse(text.slice(0, colon));
  if (colon > 0 && kind.success) {
    const path = text.slice(colon + 1);
    if (path === '')
      throw new AppFailure(
        ErrorCodes.invalidInput,
        `--expect ${text} names no path: write KIND:PATH, for example ${kind.data}:active.`,
      );
    return { finding: { kind: kind.data, path } };
  }
  return { date: parseExpectFlag(text) };
}

/** The findings an expectations file acknowledges (none in files written before they existed). */
export function findingsOfExpectationsFile(
  text: string,
  fileName: string,
  table: string,
): FindingAcknowledgement[] {
  return parseExpectations(text, fileName, table).findings ?? [];
}

export function parseExpectationsFile(text: string, fileName: string, table: string): Acknowledgement[] {
  return parseExpectations(text, fileName, table).dateStorage;
}

function parseExpectations(text: string, fileName: string, table: string) {
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
  return parsed.data;
}

/** One setting per path; a later one (a flag after the file) wins. */
export function mergeExpectations<T extends DateSetting>(...lists: (readonly T[])[]): T[] {
  const byPath = new Map<string, T>();
  for (const list of lists) for (const e of list) byPath.set(e.path, e);
  return [...byPath.values()];
}
