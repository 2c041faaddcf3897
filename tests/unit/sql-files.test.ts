import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectionFolder } from '../../src/main/sql/files/connection-folder';
import {
  appendHistory,
  deleteQuery,
  HISTORY_LIMIT,
  listSavedQueries,
  readHistory,
  saveQuery,
} from '../../src/main/sql/files/query-files';
import { deleteView, loadViews, saveView } from '../../src/main/sql/files/view-store';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-sql-files-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('SQL files per connection', () => {
  it('history is a plain .sql file, newest first when read, bounded', async () => {
    await appendHistory(dir, 'conn-1', 'SELECT 1;', new Date('2026-01-01T00:00:00Z'));
    await appendHistory(dir, 'conn-1', 'SELECT 2\nFROM t', new Date('2026-01-02T00:00:00Z'));
    await appendHistory(dir, 'conn-1', 'SELECT 2\nFROM t', new Date('2026-01-03T00:00:00Z'));
    const text = await readFile(path.join(connectionFolder(dir, 'conn-1'), 'history.sql'), 'utf8');
    expect(text).toBe(
      '-- ran 2026-01-01T00:00:00.000Z\nSELECT 1;\n\n-- ran 2026-01-02T00:00:00.000Z\nSELECT 2\nFROM t;\n\n',
    );
    expect(await readHistory(dir, 'conn-1')).toEqual([
      { sql: 'SELECT 2\nFROM t', ranAt: '2026-01-02T00:00:00.000Z' },
      { sql: 'SELECT 1', ranAt: '2026-01-01T00:00:00.000Z' },
    ]);
    // A statement `dynotable sql` ran says so on its line, and is read back with its source.
    await appendHistory(dir, 'conn-1', 'SELECT 3', new Date('2026-01-04T00:00:00Z'), 'cli');
    expect(await readFile(path.join(connectionFolder(dir, 'conn-1'), 'history.sql'), 'utf8')).toContain(
      '-- ran 2026-01-04T00:00:00.000Z from the CLI\nSELECT 3;\n',
    );
    expect((await readHistory(dir, 'conn-1'))[0]).toEqual({
      sql: 'SELECT 3',
      ranAt: '2026-01-04T00:00:00.000Z',
      source: 'cli',
    });
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) await appendHistory(dir, 'conn-2', `SELECT ${i}`);
    const kept = await readHistory(dir, 'conn-2');
    expect(kept).toHaveLength(HISTORY_LIMIT);
    expect(kept[0]!.sql).toBe(`SELECT ${HISTORY_LIMIT + 4}`);
  });

  it('saved queries are .sql files a team can drop in', async () => {
    const saved = await saveQuery(dir, 'conn', 'Revenue per customer', 'SELECT 1');
    expect(path.basename(saved.file)).toBe('revenue-per-customer.sql');
    expect(await readFile(saved.file, 'utf8')).toBe('-- name: Revenue per customer\nSELECT 1;\n');
    const folder = path.join(connectionFolder(dir, 'conn'), 'queries');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'from-a-colleague.sql'), 'SELECT 2;\n');
    const list = await listSavedQueries(dir, 'conn');
    expect(list.map((q) => [q.name, q.sql])).toEqual([
      ['from-a-colleague', 'SELECT 2;'],
      ['Revenue per customer', 'SELECT 1;'],
    ]);
    expect(await deleteQuery(dir, 'conn', 'Revenue per customer')).toBe(true);
    expect((await listSavedQueries(dir, 'conn')).map((q) => q.name)).toEqual(['from-a-colleague']);
  });

  it('user-defined views are saved with the connection as JSON', async () => {
    const view = {
      name: 'paid_orders',
      table: 'Shop',
      index: 'GSI1',
      conditions: [{ attribute: 'GSI1PK', op: '=' as const, values: [{ S: 'STATUS#PAID' }] }],
    };
    expect(await saveView(dir, 'conn', view)).toEqual([{ ...view, source: 'user' }]);
    expect(await loadViews(dir, 'conn')).toEqual([{ ...view, source: 'user' }]);
    expect(await deleteView(dir, 'conn', 'paid_orders')).toEqual([]);
    expect(connectionFolder(dir, 'odd/id')).not.toBe(connectionFolder(dir, 'odd_id'));
  });
});
