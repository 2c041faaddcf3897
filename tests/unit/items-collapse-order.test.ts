import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChannelInput } from '../../src/shared/ipc';
import { BRIDGE_KEY } from '../../src/shared/ipc/bridge';
import { requestCollapse } from '../../src/renderer/features/items/collapse-requests';
import { RowCache } from '../../src/renderer/features/items/row-cache';
import { itemsKey, useItemsStore } from '../../src/renderer/features/items/store';

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};

/**
 * Main's result-set worker behind the desktop bridge, as the renderer meets it: one view per
 * result set (a new view replaces the old), each call worked out when it arrives and its answer
 * delivered when the test says, in the order the test picks (browser mode's HTTP requests can
 * come back in any order).
 */
function worker() {
  const collections = 40;
  let items = 100;
  let isCollapsed = false;
  let views = 0;
  let current: string | undefined;
  const held: (() => void)[] = [];
  const sent: string[] = [];
  const sizes = () => ({ total: collections + (isCollapsed ? 0 : items), collections, items, entities: {} });
  const hold = <T>(envelope: T): Promise<T> => new Promise((resolve) => held.push(() => resolve(envelope)));
  vi.stubGlobal('window', {
    [BRIDGE_KEY]: {
      'resultsets:view': ({ spec }: ChannelInput<'resultsets:view'>) => {
        sent.push(spec.collections ? 'view' : 'row view');
        current = `view-${++views}`;
        const value = spec.collections ? { viewId: current, ...sizes() } : { viewId: current, total: items };
        return hold({ ok: true, value });
      },
      'resultsets:collections': ({ viewId, collapse }: ChannelInput<'resultsets:collections'>) => {
        sent.push(collapse ? 'collapse' : 'sizes');
        if (viewId !== current) {
          const message = 'This sorted or filtered view is gone; sort or filter again.';
          return hold({ ok: false, error: { code: 'NotFound', message, retryable: false } });
        }
        if (collapse) isCollapsed = collapse.isCollapsed;
        return hold({ ok: true, value: { ...sizes(), ...(collapse ? { at: 0 } : {}) } });
      },
    },
  });
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    sent,
    current: () => current,
    /** Rows streamed in: every collection view takes them in. */
    land(count: number) {
      items += count;
    },
    /** Delivers what was answered, newest first, until nothing more is asked. */
    async settleNewestFirst() {
      await turn();
      while (held.length > 0) {
        for (const deliver of held.splice(0).reverse()) deliver();
        await turn();
      }
    },
  };
}

function table(name: string) {
  const key = itemsKey('conn', name);
  const store = useItemsStore.getState();
  store.patch(key, { resultSetId: `rs-${name}`, status: 'done', fetched: 100, isGrouped: true });
  return {
    key,
    state: () => useItemsStore.getState().tables[key],
    showCollections: () => store.applyView('conn', name, keys),
    collapseAll: () => store.setCollapsed('conn', name, { all: true, isCollapsed: true }),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('collapsing item collections while the view changes under the click', () => {
  it('a Collapse all clicked while the view is rebuilt collapses the view that replaces it', async () => {
    const fake = worker();
    const tab = table('rebuilt');
    void tab.showCollections();
    await fake.settleNewestFirst();
    useItemsStore.getState().patch(tab.key, { sort: [{ column: 'PK', descending: true }] });
    void tab.showCollections(); // a sort: the worker builds a new view and drops the shown one
    void tab.collapseAll(); // clicked before the new view's id came back
    await fake.settleNewestFirst();
    expect(tab.state()).toMatchObject({ viewId: fake.current(), viewTotal: 40, collections: 40 });
    expect(tab.state()?.error).toBeUndefined();
  });

  it('sizes read before a collapse never undo it on screen, whichever answer comes back first', async () => {
    const fake = worker();
    const tab = table('streaming');
    void tab.showCollections();
    await fake.settleNewestFirst();
    useItemsStore.getState().refreshCollections(tab.key); // a page landed: sizes are read
    fake.land(50); // more pages land before the click
    void tab.collapseAll();
    await fake.settleNewestFirst();
    expect(tab.state()).toMatchObject({ viewTotal: 40, viewItems: 150 });
  });

  it('item collections off and on again before the views land: the same view, the selection kept', async () => {
    const fake = worker();
    const tab = table('off-on');
    const { patch } = useItemsStore.getState();
    patch(tab.key, { sort: [{ column: 'PK', descending: true }] });
    void tab.showCollections();
    await fake.settleNewestFirst();
    const before = tab.state()?.version;
    patch(tab.key, { isGrouped: false });
    void tab.showCollections(); // a sorted plain grid is built...
    patch(tab.key, { isGrouped: true });
    void tab.showCollections(); // ...and item collections are back before it lands
    await fake.settleNewestFirst();
    // Selection is scoped to the version: the rebuilt view has the same rows at the same places.
    expect(tab.state()).toMatchObject({ viewId: fake.current(), version: before, viewTotal: 140 });
  });

  it('the entity counts asked for when a read ends leave the collection view on its way in place', async () => {
    const fake = worker();
    const tab = table('entities');
    void tab.showCollections(); // item collections on while the read ran
    const counts = useItemsStore.getState().readEntities('conn', 'entities', keys);
    await fake.settleNewestFirst();
    await expect(counts).resolves.toBeUndefined();
    expect(fake.sent).toEqual(['view']);
    expect(tab.state()?.viewId).toBe(fake.current());
  });
});

describe('a collection header on screen', () => {
  it('shows the collapse the user asked for before its fresh block arrives', async () => {
    const header = { at: 0, partitionKey: { S: 'USER#u1' }, count: 3, isCollapsed: false, first: 0 };
    vi.stubGlobal('window', {
      [BRIDGE_KEY]: {
        'resultsets:window': () =>
          Promise.resolve({
            ok: true,
            value: {
              total: 4,
              offset: 0,
              rows: [{}, {}, {}],
              headers: [header],
              positions: [0, 1, 2],
              columns: ['PK'],
            },
          }),
      },
    });
    const cache = new RowCache('rs-header', 'view-1', 1);
    let renders = 0;
    const stop = cache.subscribe(() => (renders += 1));
    cache.ensure(0, 3, 4);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cache.entry(0)).toMatchObject({ type: 'header', header: { isCollapsed: false } });

    requestCollapse('rs-header', { isCollapsed: true, partitionKey: { S: 'USER#u1' } });
    // The next key press reads this header: it must show the collapse just asked for, not the
    // state its block was fetched in (or Right, then Left at once, lost the Left).
    expect(cache.entry(0)).toMatchObject({ type: 'header', header: { isCollapsed: true } });
    expect(renders).toBe(2);
    requestCollapse('rs-header', { all: true, isCollapsed: false });
    expect(cache.entry(0)).toMatchObject({ type: 'header', header: { isCollapsed: false } });
    stop();
  });
});
