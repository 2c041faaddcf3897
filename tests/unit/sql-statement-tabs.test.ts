import { describe, expect, it } from 'vitest';
import {
  activeDocument,
  addTab,
  closeTab,
  initialDocuments,
  isSqlDocuments,
  renameTab,
  setTabText,
} from '../../src/renderer/features/sql/statement-tabs';

describe('SQL statement tabs', () => {
  it('adds tabs with the first free "Query n" name and makes the new one active', () => {
    let docs = initialDocuments('a');
    docs = addTab(docs, 'b', 'SELECT 1');
    docs = addTab(docs, 'c');
    expect(docs.tabs.map((t) => t.title)).toEqual(['Query 1', 'Query 2', 'Query 3']);
    expect(activeDocument(docs)).toEqual({ id: 'c', title: 'Query 3', text: '' });
    docs = closeTab(docs, 'b');
    expect(addTab(docs, 'd').tabs.map((t) => t.title)).toEqual(['Query 1', 'Query 3', 'Query 2']);
  });

  it('closing the active tab moves to its left neighbour, the first tab to its right one; the last tab is replaced', () => {
    let docs = addTab(addTab(initialDocuments('a'), 'b'), 'c');
    docs = closeTab({ ...docs, active: 'b' }, 'b');
    expect(docs.active).toBe('a');
    docs = closeTab(docs, 'a');
    expect(docs.active).toBe('c');
    expect(closeTab({ ...docs, active: 'c' }, 'a')).toEqual({ ...docs, active: 'c' });
    const fresh = closeTab(docs, 'c', 'z');
    expect(fresh).toEqual({ tabs: [{ id: 'z', title: 'Query 1', text: '' }], active: 'z' });
  });

  it('renames with a trimmed name and keeps the old name for a blank one', () => {
    const docs = addTab(initialDocuments('a'), 'b');
    expect(renameTab(docs, 'b', '  Revenue  ').tabs[1]!.title).toBe('Revenue');
    expect(renameTab(docs, 'b', '   ').tabs[1]!.title).toBe('Query 2');
  });

  it('keeps each tab its own text', () => {
    let docs = addTab(initialDocuments('a'), 'b');
    docs = setTabText(docs, 'a', 'SELECT a');
    expect(docs.tabs.map((t) => t.text)).toEqual(['SELECT a', '']);
  });

  it('is plain data that survives JSON, and a restored value of another shape is refused', () => {
    const docs = addTab(initialDocuments('a'), 'b', 'SELECT "x" FROM t');
    const restored: unknown = JSON.parse(JSON.stringify(docs));
    expect(restored).toEqual(docs);
    expect(isSqlDocuments(restored)).toBe(true);
    expect(isSqlDocuments({ tabs: [], active: 'a' })).toBe(false);
    expect(isSqlDocuments({ tabs: [{ id: 'a', title: 1, text: '' }], active: 'a' })).toBe(false);
    expect(isSqlDocuments(null)).toBe(false);
  });
});
