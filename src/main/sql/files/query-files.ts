import { appendFile, mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SqlHistoryEntry, SqlSavedQuery } from '../../../shared/ipc/sql';
import { writeFileAtomic } from '../../files/atomic-file';
import { connectionFolder } from './connection-folder';

/** History keeps the most recent statements; older ones are dropped when it grows past this. */
export const HISTORY_LIMIT = 200;
const MAX_FILE_BYTES = 1_000_000;
const MAX_SAVED = 500;
const MARKER = '-- ran ';
/** Follows the time on a statement `dynotable sql` ran: `-- ran <time> from the CLI`. */
const FROM_CLI = ' from the CLI';

const historyFile = (dataDir: string, id: string) => path.join(connectionFolder(dataDir, id), 'history.sql');
const queriesFolder = (dataDir: string, id: string) => path.join(connectionFolder(dataDir, id), 'queries');

function parseHistory(text: string): SqlHistoryEntry[] {
  const entries: SqlHistoryEntry[] = [];
  for (const block of text.split(/^(?=-- ran )/m)) {
    if (!block.startsWith(MARKER)) continue;
    const newline = block.indexOf('\n');
    const stamp = block.slice(MARKER.length, newline < 0 ? undefined : newline).trim();
    const fromCli = stamp.endsWith(FROM_CLI);
    const ranAt = fromCli ? stamp.slice(0, -FROM_CLI.length) : stamp;
    const sql = (newline < 0 ? '' : block.slice(newline + 1)).trim().replace(/;\s*$/, '');
    if (sql) entries.push({ sql, ranAt, ...(fromCli ? { source: 'cli' as const } : {}) });
  }
  return entries;
}

function formatHistory(entries: SqlHistoryEntry[]): string {
  return entries
    .map((e) => `${MARKER}${e.ranAt}${e.source === 'cli' ? FROM_CLI : ''}\n${e.sql};\n\n`)
    .join('');
}

async function readBounded(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (info.size > MAX_FILE_BYTES) return (await readFile(file, 'utf8')).slice(-MAX_FILE_BYTES);
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Newest first. history.sql is a plain SQL file: each statement after a `-- ran <time>` line. */
export async function readHistory(dataDir: string, connectionId: string): Promise<SqlHistoryEntry[]> {
  const text = await readBounded(historyFile(dataDir, connectionId));
  return text ? parseHistory(text).reverse() : [];
}

export async function appendHistory(
  dataDir: string,
  connectionId: string,
  sql: string,
  ranAt = new Date(),
  source?: SqlHistoryEntry['source'],
): Promise<void> {
  const file = historyFile(dataDir, connectionId);
  await mkdir(path.dirname(file), { recursive: true });
  const entry: SqlHistoryEntry = {
    sql: sql.trim().replace(/;\s*$/, ''),
    ranAt: ranAt.toISOString(),
    ...(source ? { source } : {}),
  };
  const existing = parseHistory((await readBounded(file)) ?? '');
  if (existing.at(-1)?.sql === entry.sql) return;
  if (existing.length + 1 > HISTORY_LIMIT)
    await writeFileAtomic(file, formatHistory([...existing.slice(-(HISTORY_LIMIT - 1)), entry]), 0o644);
  else await appendFile(file, formatHistory([entry]));
}

export function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'query'
  );
}

/** Saved queries: queries/<slug>.sql, first line `-- name: <name>`; any .sql dropped in the folder counts. */
export async function listSavedQueries(dataDir: string, connectionId: string): Promise<SqlSavedQuery[]> {
  const folder = queriesFolder(dataDir, connectionId);
  let files: string[];
  try {
    files = (await readdir(folder))
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .slice(0, MAX_SAVED);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const queries: SqlSavedQuery[] = [];
  for (const file of files) {
    const full = path.join(folder, file);
    const text = (await readBounded(full)) ?? '';
    const header = /^-- name: (.*)\r?\n/.exec(text);
    const info = await stat(full);
    queries.push({
      name: header?.[1]?.trim() || file.replace(/\.sql$/, ''),
      sql: (header ? text.slice(header[0].length) : text).trim(),
      updatedAt: info.mtime.toISOString(),
      file: full,
    });
  }
  return queries;
}

export async function saveQuery(
  dataDir: string,
  connectionId: string,
  name: string,
  sql: string,
): Promise<SqlSavedQuery> {
  const file = path.join(queriesFolder(dataDir, connectionId), `${slug(name)}.sql`);
  const body = sql.trim().endsWith(';') ? sql.trim() : `${sql.trim()};`;
  await writeFileAtomic(file, `-- name: ${name.replace(/[\r\n]+/g, ' ')}\n${body}\n`, 0o644);
  return { name, sql: sql.trim(), updatedAt: new Date().toISOString(), file };
}

export async function deleteQuery(dataDir: string, connectionId: string, name: string): Promise<boolean> {
  const queries = await listSavedQueries(dataDir, connectionId);
  const match = queries.find((q) => q.name === name);
  if (!match) return false;
  await rm(match.file, { force: true });
  return true;
}
