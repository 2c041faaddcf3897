import { readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { SetAsideNotice } from '../../shared/ipc/data-files';
import { isMissingFile, TEMP_FILE } from '../files/atomic-file';
import { ownFolders } from '../files/data-folder';
import { zodSentence } from './zod-sentence';

/** What a data file is, for the sentence, and what makes its contents usable. */
export interface DataFileKind<T> {
  /** The file in words, as the start of a sentence: "Your saved workspace", "The checkpoint of copy X". */
  what: string;
  /** Checks the parsed JSON and returns it typed; throws (a ZodError, or an Error with a sentence) when it is not. */
  parse: (json: unknown) => T;
  /** What the bytes held, read from them even when they do not parse: "a copy from a to b". */
  held?: (text: string) => string | undefined;
  /** What DynoTable does without the file: "The workspace starts empty." */
  instead: string;
}

export type DataFileRead<T> =
  { state: 'missing' } | { state: 'read'; value: T } | { state: 'setAside'; notice: SetAsideNotice };

/**
 * Reads a JSON file of the data folder. A file that does not parse or does not have its kind's
 * shape is never dropped and never rewritten: it is renamed to `<name>.unreadable-<time>` next to
 * where it was, bytes unchanged, and the answer carries a sentence saying so, so the next save
 * cannot overwrite what the user may still want and whatever reads the folder keeps working.
 */
export async function readDataFile<T>(file: string, kind: DataFileKind<T>): Promise<DataFileRead<T>> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (error) {
    if (isMissingFile(error)) return { state: 'missing' };
    throw error;
  }
  const text = bytes.toString('utf8');
  let problem: string;
  try {
    return { state: 'read', value: kind.parse(JSON.parse(text)) };
  } catch (error) {
    problem = problemOf(error, text);
  }
  try {
    return { state: 'setAside', notice: await setAside(file, text, bytes.length, kind, problem) };
  } catch (error) {
    // Another reader set it aside a moment ago; that reader's answer tells the user.
    if (isMissingFile(error)) return { state: 'missing' };
    throw error;
  }
}

/** The file as it is, or undefined when it is missing; a set-aside file is a failure whose message is the notice. */
export async function readDataFileOrFail<T>(file: string, kind: DataFileKind<T>): Promise<T | undefined> {
  const read = await readDataFile(file, kind);
  if (read.state === 'setAside') throw setAsideFailure(read.notice);
  return read.state === 'read' ? read.value : undefined;
}

export function setAsideFailure(notice: SetAsideNotice): AppFailure {
  return new AppFailure(ErrorCodes.dataFileSetAside, notice.message, false, {
    file: notice.file,
    keptAs: notice.keptAs,
  });
}

/** The notice carried by a failure from readDataFileOrFail, if that is what it is. */
export function setAsideNoticeOf(error: unknown): SetAsideNotice | undefined {
  if (!(error instanceof AppFailure) || error.code !== ErrorCodes.dataFileSetAside) return undefined;
  const { file, keptAs } = error.details ?? {};
  return typeof file === 'string' && typeof keptAs === 'string'
    ? { file, keptAs, message: error.message }
    : undefined;
}

const CUT_SHORT = 'it ends in the middle, as a write cut short by a crash leaves a file';

/** JSON.parse gave up at the last byte: the text is a beginning of JSON, not broken JSON. */
function endsEarly(error: SyntaxError, text: string): boolean {
  if (/end of (JSON )?input|Unterminated/i.test(error.message)) return true;
  const at = /at position (\d+)/.exec(error.message)?.[1];
  return at !== undefined && Number(at) >= text.trimEnd().length;
}

/**
 * Runs `work`; when it failed because a file was set aside, `record` writes that down where the
 * user will look later (a scan's summary becomes failed with the sentence), then the failure goes on.
 */
export async function recordingSetAside<T>(
  work: Promise<T>,
  record: (notice: SetAsideNotice) => Promise<unknown>,
): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const notice = setAsideNoticeOf(error);
    if (notice) await record(notice).catch(() => undefined);
    throw error;
  }
}

function problemOf(error: unknown, text: string): string {
  if (text.trim() === '') return 'it is empty';
  if (error instanceof z.ZodError) {
    const { message, path } = zodSentence(error);
    return `it is not in the form DynoTable writes (${path ? `${path}: ` : ''}${message})`;
  }
  if (error instanceof SyntaxError) return endsEarly(error, text) ? CUT_SHORT : 'it is not valid JSON';
  // Another reader's sentence, made a clause of this one.
  if (error instanceof Error && error.message)
    return error.message.charAt(0).toLowerCase() + error.message.slice(1).replace(/\.$/, '');
  return 'it could not be understood';
}

async function setAside<T>(
  file: string,
  text: string,
  size: number,
  kind: DataFileKind<T>,
  problem: string,
): Promise<SetAsideNotice> {
  // Colons are not allowed in Windows file names.
  const keptAs = `${file}.unreadable-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await rename(file, keptAs);
  let held: string | undefined;
  try {
    held = kind.held?.(text);
  } catch {
    held = undefined;
  }
  const bytes = `${size} byte${size === 1 ? '' : 's'}`;
  return {
    file,
    keptAs,
    message: `${kind.what} (${file}) could not be read: ${problem}. DynoTable kept it unchanged as ${basename(keptAs)} in the same folder; it held ${held ? `${held}, ${bytes}` : bytes}. ${kind.instead}`,
  };
}

/**
 * The string values stored under `name` anywhere in a JSON text, found even when the text is cut
 * short or broken elsewhere: what a set-aside file's sentence can still say about it.
 */
export function stringsNamed(text: string, name: string): string[] {
  const pattern = new RegExp(`"${name}"\\s*:\\s*("(?:[^"\\\\]|\\\\.)*")`, 'g');
  return [...text.matchAll(pattern)].flatMap((m) => {
    try {
      return [JSON.parse(m[1]!) as string];
    } catch {
      return [];
    }
  });
}

/**
 * The first string stored under `name` in a set-aside file, read again from where it was kept:
 * for a record that stands in for it (a failed scan in the list of the table it was of).
 */
export async function stringInSetAside(notice: SetAsideNotice, name: string): Promise<string | undefined> {
  const text = await readFile(notice.keptAs, 'utf8').catch(() => '');
  return stringsNamed(text, name)[0];
}

/**
 * The ids of a job folder's `<id>.summary.json` records, newest first (ids begin with their time),
 * none when the folder does not exist yet: how pre-flight scans and schema reads are listed.
 */
export async function summaryIdsNewestFirst(dir: string, suffix = '.summary.json'): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if (isMissingFile(error)) return [];
    throw error;
  }
  return names
    .filter((n) => n.endsWith(suffix))
    .map((n) => n.slice(0, -suffix.length))
    .sort()
    .reverse();
}

/** Deep enough for <area>/<connection>/<file>; a temp file is looked for only in ownFolders(). */
const MAX_DEPTH = 4;

/**
 * Removes the temp files that atomic writes of a killed process left behind (kill -9, a power cut):
 * those of a process that no longer runs. A live process's temp file (the CLI next to the app) is
 * left alone, since it is about to be renamed into place. Returns the paths removed.
 */
export async function removeLeftoverTempFiles(dataDir: string): Promise<string[]> {
  const removed: string[] = [];
  const walk = async (dir: string, depth: number, recurse: boolean): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (recurse && depth < MAX_DEPTH) await walk(path, depth + 1, true);
      } else if (entry.isFile() && (await isLeftover(path, entry.name))) {
        await rm(path, { force: true }).then(
          () => removed.push(path),
          () => undefined,
        );
      }
    }
  };
  await walk(dataDir, 0, false);
  for (const folder of ownFolders(dataDir)) await walk(folder, 1, true);
  return removed;
}

/** Temp files named before the writer's pid was in the name: old enough means nobody is writing them. */
const UNNAMED_AFTER_MS = 10 * 60_000;

async function isLeftover(path: string, name: string): Promise<boolean> {
  const match = TEMP_FILE.exec(name);
  if (!match) return false;
  const pid = match[1] === undefined ? undefined : Number(match[1]);
  if (pid !== undefined) return pid !== process.pid && !isRunning(pid);
  const info = await stat(path).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs > UNNAMED_AFTER_MS;
}

export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as { code?: unknown }).code === 'EPERM';
  }
}
