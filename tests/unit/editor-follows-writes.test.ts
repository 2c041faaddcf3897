import { beforeEach, describe, expect, it } from 'vitest';
import type { Item } from '../../src/shared/dynamo/attribute-value';
import { editorKey, useEditorStore } from '../../src/renderer/features/editor/store';

const key = editorKey('c1', 'T');
const balance = (currency: string, extra: Item = {}): Item => ({
  PK: { S: 'USER#u1' },
  SK: { S: 'BALANCE' },
  currency: { S: currency },
  ...extra,
});
const itemKey = { PK: { S: 'USER#u1' }, SK: { S: 'BALANCE' } };
const open = () => useEditorStore.getState().tables[key]?.open;
const written = (item: Item | null, source?: 'grid' | 'bulk') =>
  useEditorStore.getState().written('c1', 'T', source, [{ key: itemKey, item }]);

describe('the item editor follows writes DynoTable made', () => {
  beforeEach(() => {
    useEditorStore.setState({ tables: {} });
    useEditorStore.getState().patch(key, { open: { seen: balance('EUR'), draft: balance('EUR') } });
  });

  it('without unsaved edits shows what is stored now and says who wrote it', () => {
    written(balance('USD'), 'grid');
    expect(open()).toMatchObject({
      seen: balance('USD'),
      draft: balance('USD'),
      followed: { source: 'grid' },
    });
    expect(open()?.conflict).toBeUndefined();
  });

  it('with unsaved edits keeps them and shows loaded, stored now and yours', () => {
    useEditorStore.getState().setDraft(key, balance('EUR', { note: { S: 'mine' } }));
    written(balance('USD'), 'bulk');
    expect(open()?.seen).toEqual(balance('EUR'));
    expect(open()?.conflict).toEqual({
      current: balance('USD'),
      mine: balance('EUR', { note: { S: 'mine' } }),
      writtenBy: { source: 'bulk' },
    });
  });

  it('says the item was deleted, naming the write, and leaves other items and echoes alone', () => {
    written(balance('EUR'));
    expect(open()).toEqual({ seen: balance('EUR'), draft: balance('EUR') });
    useEditorStore
      .getState()
      .written('c1', 'T', 'grid', [{ key: { PK: { S: 'USER#u2' }, SK: { S: 'BALANCE' } }, item: null }]);
    expect(open()?.seen).toEqual(balance('EUR'));
    written(null, 'bulk');
    expect(open()?.seen).toBeNull();
    expect(open()?.error?.message).toBe('This item was deleted by a bulk delete. Saving creates it again.');
  });
});
