import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Item } from '../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import {
  journalEntrySchema,
  type JournalAction,
  type JournalEntry,
  type JournalLimits,
  type WriteSource,
} from '../../shared/ipc/journal';
import { isMissingFile, writeFileAtomic } from '../files/atomic-file';
import { pastLimits, readLimits, type LimitsRead } from './journal-limits';
import { keyText, listSetAside, recoverInterrupted, RUN, setAside, writingNow } from './journal-recovery';
import { settleIntents, type ItemReader, type JournalPair, type WriteIntent } from './resolve-intents';
import { dataFolder } from '../files/data-folder';

export type { ItemReader, JournalPair, WriteIntent } from './resolve-intents';

export interface JournalWriter {
  id: string;
  /**
   * Announces a write before it is sent (the item as it was, what the write should leave), on
   * disk before the promise settles: if the job stops (or every answer is lost) before the
   * write's own line is added, the entry is completed by reading the item (resolve-intents.ts).
   */
  intend(...intents: WriteIntent[]): Promise<void>;
  /** The announced write was refused (its condition failed): nothing to undo for this key. */
  refuse(key: Item): Promise<void>;
  add(pairs: JournalPair[]): Promise<void>;
  /**
   * Writes the entry's summary, after reading each announced write never heard back from;
   * undefined when nothing was written (no file is kept).
   */
  finish(): Promise<JournalEntry | undefined>;
}

const LISTED = 100;
const PAIRS_PER_CHUNK = 200;
const SUMMARY = /^(j[0-9a-z]+)\.json$/;
const PENDING = /^(j[0-9a-z]+)\.pending\.jsonl$/;
const ITEMS = /^(j[0-9a-z]+)\.jsonl$/;

/**
 * <dataDir>/journal/<connection>/<id>.jsonl holds one pair per line (DynamoDB's tagged JSON, so
 * numbers, sets and binary come back as written; JSON.parse keeps `__proto__` as an own name);
 * <id>.json is the entry's summary, written last, so a listed entry always has its items. While
 * the entry is written, <id>.pending.jsonl names its table, job and process, and every write
 * announced before it was sent; it is removed once the summary is written.
 */
export function journalFolder(dataDir: string, connectionId: string): string {
  return dataFolder.connection(dataDir, 'journal', connectionId);
}

function newId(): string {
  return `j${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}

const toLine = (value: unknown) => `${JSON.stringify(value)}\n`;

export function startJournalEntry(
  dataDir: string,
  connectionId: string,
  meta: {
    table: string;
    action: JournalAction;
    source: WriteSource;
    reason: string;
    isBeforeAsRead?: boolean;
  },
  /** Reads announced writes never heard back from, and other entries a killed run left. */
  read?: ItemReader,
): JournalWriter {
  const folder = journalFolder(dataDir, connectionId);
  const id = newId();
  const itemsFile = path.join(folder, `${id}.jsonl`);
  const pendingFile = path.join(folder, `${id}.pending.jsonl`);
  let count = 0;
  let isStarted = false;
  /** Announced writes not yet added or refused, by key. */
  const announced = new Map<string, WriteIntent>();
  // Appends run one after another, so lines never interleave.
  let queue: Promise<void> = Promise.resolve();
  const append = (file: string, text: string): Promise<void> => {
    if (!isStarted) {
      isStarted = true;
      writingNow.add(id);
      const head = toLine({ entry: { ...meta, pid: process.pid, run: RUN } });
      queue = queue
        .then(() => mkdir(folder, { recursive: true, mode: 0o700 }))
        .then(() => appendFile(pendingFile, head, { mode: 0o600 }));
    }
    queue = queue.then(() => appendFile(file, text, { mode: 0o600 }));
    return queue;
  };
  const add = (pairs: JournalPair[]): Promise<void> => {
    if (pairs.length === 0) return queue;
    for (const pair of pairs) announced.delete(keyText(pair.key));
    count += pairs.length;
    return append(itemsFile, pairs.map(toLine).join(''));
  };
  return {
    id,
    intend(...intents) {
      if (intents.length === 0) return queue;
      for (const intent of intents) announced.set(keyText(intent.key), intent);
      return append(pendingFile, intents.map(toLine).join(''));
    },
    refuse(key) {
      if (!announced.delete(keyText(key))) return queue;
      return append(pendingFile, toLine({ key, isRefused: true }));
    },
    add,
    async finish() {
      try {
        // Writes sent and never heard back from (every answer lost) may have landed: read.
        const unheard = [...announced.values()];
        announced.clear();
        if (unheard.length > 0) await add(await settleIntents(unheard, meta.table, read));
        await queue;
        if (count === 0) {
          if (isStarted) await rm(pendingFile, { force: true });
          return undefined;
        }
        const entry: JournalEntry = {
          id,
          at: new Date().toISOString(),
          table: meta.table,
          action: meta.action,
          source: meta.source,
          reason: meta.reason,
          count,
          ...(meta.isBeforeAsRead ? { isBeforeAsRead: true } : {}),
        };
        await writeFileAtomic(path.join(folder, `${id}.json`), JSON.stringify(entry));
        await rm(pendingFile, { force: true });
        await prune(folder, await readLimits(dataDir), read);
        return entry;
      } finally {
        writingNow.delete(id);
      }
    },
  };
}

interface Scan {
  entries: JournalEntry[];
  bytes: Map<string, number>;
}

async function sizeOf(file: string): Promise<number> {
  return stat(file).then(
    (s) => s.size,
    () => 0,
  );
}

/**
 * Every entry of a folder, newest first. An entry a stopped job left without its summary is
 * completed from its pending writes; a file that cannot be read is set aside with the reason,
 * never deleted or left to hide the rest.
 */
async function summaries(folder: string, read?: ItemReader): Promise<Scan> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if (isMissingFile(error)) return { entries: [], bytes: new Map() };
    throw error;
  }
  const present = new Set(names);
  const entries: JournalEntry[] = [];
  const bytes = new Map<string, number>();
  const keep = async (entry: JournalEntry) => {
    entries.push(entry);
    bytes.set(
      entry.id,
      (await sizeOf(path.join(folder, `${entry.id}.json`))) +
        (await sizeOf(path.join(folder, `${entry.id}.jsonl`))),
    );
  };
  for (const name of names) {
    const summary = SUMMARY.exec(name)?.[1];
    if (summary) {
      const entry = await readSummary(folder, summary);
      if (entry) await keep(entry);
      continue;
    }
    const pending = PENDING.exec(name)?.[1];
    if (pending && !present.has(`${pending}.json`)) {
      try {
        const entry = await recoverInterrupted(folder, pending, read);
        if (entry) await keep(entry);
      } catch (error) {
        await setAside(
          folder,
          pending,
          `The journal entry ${pending} was being written when DynoTable stopped, and its record of pending writes could not be read (${reason(error)}), so it was set aside; its items cannot be undone from the History.`,
        );
      }
      continue;
    }
    const orphan = ITEMS.exec(name)?.[1];
    if (
      orphan &&
      !present.has(`${orphan}.json`) &&
      !present.has(`${orphan}.pending.jsonl`) &&
      !writingNow.has(orphan)
    )
      await setAside(
        folder,
        orphan,
        `The journal entry ${orphan} has items but no summary (its writing was cut off), so it was set aside; its items cannot be undone from the History.`,
      );
  }
  entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return { entries, bytes };
}

function reason(error: unknown): string {
  return error instanceof SyntaxError
    ? 'it is not valid JSON'
    : error instanceof Error
      ? error.message
      : String(error);
}

async function readSummary(folder: string, id: string): Promise<JournalEntry | undefined> {
  let problem: string;
  try {
    const parsed = journalEntrySchema.safeParse(
      JSON.parse(await readFile(path.join(folder, `${id}.json`), 'utf8')),
    );
    if (parsed.success && parsed.data.id === id) return parsed.data;
    problem = parsed.success ? 'it names another entry' : 'it does not have the fields a journal summary has';
  } catch (error) {
    if (isMissingFile(error)) return undefined;
    problem = reason(error);
  }
  // A summary cut short or edited by hand: kept aside, so the user can look, and the rest listed.
  await setAside(
    folder,
    id,
    `The journal entry ${id} could not be read (${problem}), so it was set aside with its items; it cannot be undone from the History.`,
  );
  return undefined;
}

/** Deletes the entries past the bounds; returns the rest, newest first. */
async function prune(folder: string, { limits }: LimitsRead, read?: ItemReader): Promise<JournalEntry[]> {
  const { entries, bytes } = await summaries(folder, read);
  const kept = entries.map((e) => ({ id: e.id, at: e.at, bytes: bytes.get(e.id) ?? 0 }));
  const past = new Set(pastLimits(kept, limits).map((e) => e.id));
  for (const id of past) {
    await rm(path.join(folder, `${id}.json`), { force: true });
    await rm(path.join(folder, `${id}.jsonl`), { force: true });
  }
  return entries.filter((e) => !past.has(e.id));
}

export interface JournalListing {
  entries: JournalEntry[];
  limits: JournalLimits;
  limitsProblem?: string;
  setAside?: { file: string; reason: string }[];
}

/** The newest entries within the bounds (older ones go now, not only when a write finishes). */
export async function listJournal(
  dataDir: string,
  connectionId: string,
  table?: string,
  /** Reads the items of entries a killed run left, to tell which of its writes landed. */
  read?: ItemReader,
): Promise<JournalListing> {
  const folder = journalFolder(dataDir, connectionId);
  const limitsRead = await readLimits(dataDir);
  const { limits, problem } = limitsRead;
  const entries = await prune(folder, limitsRead, read);
  const aside = await listSetAside(folder);
  return {
    entries: (table === undefined ? entries : entries.filter((e) => e.table === table)).slice(0, LISTED),
    limits,
    ...(problem ? { limitsProblem: problem } : {}),
    ...(aside.length > 0 ? { setAside: aside } : {}),
  };
}

export async function readJournalEntry(
  dataDir: string,
  connectionId: string,
  id: string,
): Promise<JournalEntry> {
  const file = path.join(journalFolder(dataDir, connectionId), `${id}.json`);
  try {
    return journalEntrySchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch (error) {
    if (!isMissingFile(error)) throw error;
    throw new AppFailure(
      ErrorCodes.notFound,
      'This journal entry is no longer kept (the journal keeps the newest entries within its bounds, set in journal/settings.json in the data folder), so it cannot be undone.',
    );
  }
}

/** The entry's items in chunks, read line by line so a large bulk change is never held whole. */
export async function* journalPairs(
  dataDir: string,
  connectionId: string,
  id: string,
): AsyncGenerator<JournalPair[]> {
  const file = path.join(journalFolder(dataDir, connectionId), `${id}.jsonl`);
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let chunk: JournalPair[] = [];
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    chunk.push(parsePair(text, line));
    if (chunk.length >= PAIRS_PER_CHUNK) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

function parsePair(text: string, line: number): JournalPair {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const pair = value as Partial<JournalPair> | undefined;
  const isItem = (v: unknown) => v === null || (typeof v === 'object' && !Array.isArray(v));
  if (!pair || typeof pair.key !== 'object' || !isItem(pair.before) || !isItem(pair.after)) {
    throw new AppFailure(
      ErrorCodes.invalidInput,
      `Line ${line} of this journal entry's file is damaged, so undo stopped there; items before it were handled.`,
    );
  }
  return pair as JournalPair;
}

export async function recordUndo(
  dataDir: string,
  connectionId: string,
  entry: JournalEntry,
  lastUndo: NonNullable<JournalEntry['lastUndo']>,
): Promise<void> {
  const file = path.join(journalFolder(dataDir, connectionId), `${entry.id}.json`);
  await writeFileAtomic(file, JSON.stringify({ ...entry, lastUndo }));
}
