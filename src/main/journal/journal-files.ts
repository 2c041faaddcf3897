import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Item } from '../../shared/dynamo/attribute-value';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import {
  journalEntrySchema,
  type JournalAction,
  type JournalEntry,
  type WriteSource,
} from '../../shared/ipc/journal';
import { isMissingFile, writeFileAtomic } from '../aws/atomic-file';
import { connectionDataFolder } from '../core/connection-folder';

/** One item of an entry: what was stored before the write and what the write left (null: none). */
export interface JournalPair {
  key: Item;
  before: Item | null;
  after: Item | null;
}

export interface JournalWriter {
  id: string;
  add(pairs: JournalPair[]): Promise<void>;
  /** Writes the entry's summary; undefined when nothing was added (no file is kept). */
  finish(): Promise<JournalEntry | undefined>;
}

/** Entries kept per connection; older ones are deleted when a new one is finished. */
const KEEP = 200;
const LISTED = 100;
const PAIRS_PER_CHUNK = 200;

/**
 * <dataDir>/journal/<connection>/<id>.jsonl holds one pair per line (DynamoDB's tagged JSON, so
 * numbers, sets and binary come back as written; JSON.parse keeps `__proto__` as an own name);
 * <id>.json is the entry's summary, written last, so a listed entry always has its items.
 */
export function journalFolder(dataDir: string, connectionId: string): string {
  return connectionDataFolder(dataDir, 'journal', connectionId);
}

function newId(): string {
  return `j${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;
}

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
): JournalWriter {
  const folder = journalFolder(dataDir, connectionId);
  const id = newId();
  const itemsFile = path.join(folder, `${id}.jsonl`);
  let count = 0;
  // Appends run one after another, so lines never interleave.
  let queue: Promise<void> = mkdir(folder, { recursive: true, mode: 0o700 }).then(() => undefined);
  return {
    id,
    add(pairs) {
      if (pairs.length === 0) return queue;
      count += pairs.length;
      const text = pairs.map((pair) => `${JSON.stringify(pair)}\n`).join('');
      queue = queue.then(() => appendFile(itemsFile, text, { mode: 0o600 }));
      return queue;
    },
    async finish() {
      await queue;
      if (count === 0) return undefined;
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
      await prune(folder);
      return entry;
    },
  };
}

async function summaries(folder: string): Promise<JournalEntry[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if (isMissingFile(error)) return [];
    throw error;
  }
  const entries: JournalEntry[] = [];
  for (const name of names) {
    if (!/^j[0-9a-z]+\.json$/.test(name)) continue;
    try {
      const parsed = journalEntrySchema.safeParse(
        JSON.parse(await readFile(path.join(folder, name), 'utf8')),
      );
      if (parsed.success) entries.push(parsed.data);
    } catch {
      // A summary cut short or edited by hand is left out of the list rather than hiding the rest.
    }
  }
  return entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

async function prune(folder: string): Promise<void> {
  const entries = await summaries(folder);
  for (const old of entries.slice(KEEP)) {
    await rm(path.join(folder, `${old.id}.json`), { force: true });
    await rm(path.join(folder, `${old.id}.jsonl`), { force: true });
  }
}

export async function listJournal(
  dataDir: string,
  connectionId: string,
  table?: string,
): Promise<JournalEntry[]> {
  const entries = await summaries(journalFolder(dataDir, connectionId));
  return (table === undefined ? entries : entries.filter((e) => e.table === table)).slice(0, LISTED);
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
      'This journal entry is no longer kept (only the newest 200 per connection are), so it cannot be undone.',
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
