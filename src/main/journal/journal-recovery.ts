import { createReadStream } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Item } from '../../shared/dynamo/attribute-value';
import { journalActionSchema, writeSourceSchema, type JournalEntry } from '../../shared/ipc/journal';
import { isMissingFile, writeFileAtomic } from '../files/atomic-file';
import { settleIntents, type ItemReader, type WriteIntent } from './resolve-intents';

const SET_ASIDE = 'set-aside';

/** A key as text, the same whatever order its attributes were written in. */
export function keyText(key: Item): string {
  return JSON.stringify(Object.entries(key).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The ids of entries this process is writing now; another process's live entry is told by its pid. */
export const writingNow = new Set<string>();

/**
 * This run of DynoTable, next to the pid in a pending record: restarted in a container, the app
 * may well get the pid its killed run had, and must not take that run's entry for its own.
 */
export const RUN = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

function isAlive(pid: number, run: string | undefined): boolean {
  if (pid === process.pid) return run === RUN;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

async function* lines(file: string): AsyncGenerator<{ text: string; line: number }> {
  const reader = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let line = 0;
  for await (const text of reader) {
    line++;
    if (text.trim() !== '') yield { text, line };
  }
}

/**
 * Moves an entry's files into `set-aside/` next to a `.why.txt` holding the reason: kept for
 * the user to look at, no longer read as the journal.
 */
export async function setAside(folder: string, id: string, reason: string): Promise<void> {
  const aside = path.join(folder, SET_ASIDE);
  await mkdir(aside, { recursive: true, mode: 0o700 });
  for (const suffix of ['.json', '.jsonl', '.pending.jsonl']) {
    await rename(path.join(folder, `${id}${suffix}`), path.join(aside, `${id}${suffix}`)).catch(
      (error: unknown) => {
        if (!isMissingFile(error)) throw error;
      },
    );
  }
  await writeFileAtomic(path.join(aside, `${id}.why.txt`), reason);
}

/** Every set-aside entry of a folder, as the file kept and the reason it was set aside. */
export async function listSetAside(folder: string): Promise<{ file: string; reason: string }[]> {
  const aside = path.join(folder, SET_ASIDE);
  let names: string[];
  try {
    names = await readdir(aside);
  } catch (error) {
    if (isMissingFile(error)) return [];
    throw error;
  }
  const out: { file: string; reason: string }[] = [];
  for (const name of names.filter((n) => n.endsWith('.why.txt')).sort()) {
    const id = name.slice(0, -'.why.txt'.length);
    const kept = ['.json', '.jsonl', '.pending.jsonl'].map((s) => `${id}${s}`).find((n) => names.includes(n));
    const reason = await readFile(path.join(aside, name), 'utf8').catch(() => 'The reason was not kept.');
    out.push({ file: path.join(aside, kept ?? name), reason });
  }
  return out;
}

interface PendingMeta {
  table: string;
  action: JournalEntry['action'];
  /** Who asked, and why, when the writer named them (older pending files did not). */
  source?: JournalEntry['source'];
  reason?: string;
  pid: number;
  run?: string;
  isBeforeAsRead?: boolean;
}

function parseMeta(text: string): PendingMeta | undefined {
  try {
    const value = (JSON.parse(text) as { entry?: Partial<PendingMeta> }).entry;
    if (!value || typeof value.table !== 'string' || typeof value.pid !== 'number') return undefined;
    const action = journalActionSchema.safeParse(value.action);
    if (!action.success) return undefined;
    const source = writeSourceSchema.safeParse(value.source);
    return {
      table: value.table,
      action: action.data,
      ...(source.success ? { source: source.data } : {}),
      ...(typeof value.reason === 'string' ? { reason: value.reason } : {}),
      pid: value.pid,
      run: typeof value.run === 'string' ? value.run : undefined,
      isBeforeAsRead: value.isBeforeAsRead,
    };
  } catch {
    return undefined;
  }
}

/**
 * An entry whose job stopped before its summary was written (the app quit or was killed): its
 * `.pending.jsonl` names every write announced before it was sent. Each that never got a line of
 * its own (sent, and then nothing was heard) is read: one that landed joins the items with what
 * is stored, one that did not is dropped, so the journal neither misses a write that landed nor
 * holds one that did not. One that cannot be told (no reader, a failed read, a change made since)
 * joins as unconfirmed, and undo reads it again. Returns undefined while the job is still running,
 * here or in another live process.
 */
export async function recoverInterrupted(
  folder: string,
  id: string,
  read?: ItemReader,
): Promise<JournalEntry | undefined> {
  if (writingNow.has(id)) return undefined;
  const pendingFile = path.join(folder, `${id}.pending.jsonl`);
  const itemsFile = path.join(folder, `${id}.jsonl`);
  let meta: PendingMeta | undefined;
  const intents = new Map<string, WriteIntent>();
  let torn: number | undefined;
  for await (const { text, line } of lines(pendingFile)) {
    if (line === 1) {
      meta = parseMeta(text);
      if (!meta) break;
      if (isAlive(meta.pid, meta.run)) return undefined;
      continue;
    }
    if (torn !== undefined) throw new Error(`line ${torn} of its pending writes is damaged`);
    let value: WriteIntent & { isRefused?: boolean };
    try {
      value = JSON.parse(text) as typeof value;
    } catch {
      // Only the last line may be cut short by a kill; its write was never sent (the line is
      // written before the write goes out).
      torn = line;
      continue;
    }
    if (value.isRefused) intents.delete(keyText(value.key));
    else intents.set(keyText(value.key), value);
  }
  if (!meta) throw new Error('its first line does not say which table and job it belongs to');
  let count = 0;
  try {
    for await (const { text } of lines(itemsFile)) {
      count++;
      intents.delete(keyText((JSON.parse(text) as { key: Item }).key));
    }
  } catch (error) {
    if (!isMissingFile(error)) throw error;
  }
  const settled = await settleIntents([...intents.values()], meta.table, read);
  if (settled.length > 0)
    await appendFile(itemsFile, settled.map((pair) => `${JSON.stringify(pair)}\n`).join(''), { mode: 0o600 });
  count += settled.length;
  const at = (await stat(pendingFile)).mtime.toISOString();
  const isCommit = meta.action === 'commit';
  const entry: JournalEntry = {
    id,
    at,
    table: meta.table,
    action: meta.action,
    source: meta.source ?? (isCommit ? 'grid' : 'bulk'),
    reason: meta.reason ?? (isCommit ? 'Committed staged changes' : 'Bulk change'),
    count,
    isInterrupted: true,
    ...(meta.isBeforeAsRead ? { isBeforeAsRead: true } : {}),
  };
  if (count > 0) await writeFileAtomic(path.join(folder, `${id}.json`), JSON.stringify(entry));
  else await rm(itemsFile, { force: true });
  await rm(pendingFile, { force: true });
  return count > 0 ? entry : undefined;
}
