import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChannelInput } from '../../src/shared/ipc';
import { BRIDGE_KEY } from '../../src/shared/ipc/bridge';
import { requestCollapse } from '../../src/renderer/features/items/collapse-requests';
import { RowCache } from '../../src/renderer/features/items/row-cache';
import { itemsKey, useItemsStore } from '../../src/renderer/features/items/store';
import { ResultSetCore } from '../../src/main/resultsets/result-set-core';
import type { CollapseChange } from '../../src/shared/dynamo/collapse-state';
import { toAppError } from '../../src/main/core/to-app-error';

const keys = {
  partitionKey: { name: 'PK', type: 'S' as const },
  sortKey: { name: 'SK', type: 'S' as const },
};

/**
 * Main's real result-set core behind the desktop bridge, as the renderer meets it, with the
 * calls' timing in the test's hands. Browser mode sends each call as its own HTTP request, so
 * calls can reach the worker in another order than sent, and answers can come back in any
 * order: `answers` works each call out when it is sent and delivers the answers newest first;
 * `arrivals` works the calls out newest first too, each answered as it is worked out.
 */
type Timing = 'answers' | 'arrivals';

function worker(timing: Timing) {
  const core = new ResultSetCore();
  const resultSetId = core.create({ connectionId: 'conn', table: 't', keyAttributes: ['PK', 'SK'] });
  let landed = 0;
  const land = (count: number) => {
    const items = Array.from({ length: count }, (_, i) => ({
      PK: { S: `USER#u${String((landed + i) % 40).padStart(2, '0')}` },
      SK: { S: `ORDER#${String(landed + i).padStart(4, '0')}` },
    }));
    landed += count;
    core.append(resultSetId, items);
  };
  land(100);
  const held: (() => void)[] = [];
  const sent: string[] = [];
  const envelope = (work: () => unknown) => {
    try {
      return { ok: true, value: work() };
    } catch (error) {
      return { ok: false, error: toAppError(error) };
    }
  };
  const hold = (work: () => unknown): Promise<unknown> => {
    if (timing === 'answers') {
      const answer = envelope(work);
      return new Promise((resolve) => held.push(() => resolve(answer)));
    }
    return new Promise((resolve) => held.push(() => resolve(envelope(work))));
  };
  vi.stubGlobal('window', {
    [BRIDGE_KEY]: {
      'resultsets:view': ({ spec, viewId, revision }: ChannelInput<'resultsets:view'>) => {
        sent.push(spec.collections ? 'view' : 'row view');
        return hold(() => core.view(resultSetId, spec, viewId, revision));
      },
      'resultsets:collections': ({ viewId, collapse }: ChannelInput<'resultsets:collections'>) => {
        sent.push(collapse ? 'collapse' : 'sizes');
        return hold(() => core.collections(resultSetId, viewId, collapse as CollapseChange | undefined));
      },
    },
  });
  const turn = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    resultSetId,
    sent,
    /** The grid's view as the worker holds it: its first rows are headers when it shows collections. */
    grid: () => core.window(resultSetId, 0, 3, 'grid'),
    /** Rows streamed in: every collection view takes them in. */
    land,
    /** Delivers what was asked, newest first, until nothing more is asked. */
    async settleNewestFirst() {
      await turn();
      while (held.length > 0) {
        for (const deliver of held.splice(0).reverse()) deliver();
        await turn();
      }
    },
  };
}

function table(name: string, resultSetId: string) {
  const key = itemsKey('conn', name);
  const store = useItemsStore.getState();
  store.patch(key, { resultSetId, status: 'done', fetched: 100, isGrouped: true });
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

describe.each<Timing>(['answers', 'arrivals'])(
  'collapsing item collections while the view changes under the click (%s out of order)',
  (timing) => {
    it('a Collapse all clicked while the view is rebuilt collapses the view that replaces it', async () => {
      const fake = worker(timing);
      const tab = table(`rebuilt-${timing}`, fake.resultSetId);
      void tab.showCollections();
      await fake.settleNewestFirst();
      useItemsStore.getState().patch(tab.key, { sort: [{ column: 'PK', descending: true }] });
      void tab.showCollections(); // a sort: the worker builds the grid's view again
      void tab.collapseAll(); // clicked before the new view came back
      await fake.settleNewestFirst();
      expect(tab.state()).toMatchObject({ viewId: 'grid', viewTotal: 40, collections: 40 });
      expect(tab.state()?.error).toBeUndefined();
      expect(fake.grid()).toMatchObject({ total: 40, rows: [] });
    });

    it('sizes read before a collapse never undo it on screen, whichever answer comes back first', async () => {
      const fake = worker(timing);
      const tab = table(`streaming-${timing}`, fake.resultSetId);
      void tab.showCollections();
      await fake.settleNewestFirst();
      useItemsStore.getState().refreshCollections(tab.key); // a page landed: sizes are read
      fake.land(50); // more pages land before the click
      void tab.collapseAll();
      await fake.settleNewestFirst();
      expect(tab.state()).toMatchObject({ viewTotal: 40, viewItems: 150 });
    });

    it('item collections off and on again before the views land: the same view, the selection kept', async () => {
      const fake = worker(timing);
      const tab = table(`off-on-${timing}`, fake.resultSetId);
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
      expect(tab.state()).toMatchObject({ viewId: 'grid', version: before, viewTotal: 140 });
      expect(fake.grid().headers).toHaveLength(1);
    });

    it('the entity counts asked for when a read ends leave the collection view on its way in place', async () => {
      const fake = worker(timing);
      const tab = table(`entities-${timing}`, fake.resultSetId);
      const { patch, readEntities } = useItemsStore.getState();
      patch(tab.key, { isGrouped: false });
      const counts = readEntities('conn', `entities-${timing}`, keys); // the read ended, no view shown
      patch(tab.key, { isGrouped: true });
      void tab.showCollections(); // item collections on before the counts came back
      await fake.settleNewestFirst();
      await expect(counts).resolves.toEqual({ ORDER: 100 });
      expect(fake.sent).toEqual(['row view', 'view']);
      expect(tab.state()).toMatchObject({ viewId: 'grid', viewTotal: 140 });
      expect(fake.grid().headers).toHaveLength(1);
    });
  },
);

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
