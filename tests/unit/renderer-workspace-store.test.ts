import { beforeEach, describe, expect, it } from 'vitest';
import { homeTab, tableTabId, useWorkspaceStore } from '../../src/renderer/features/workspace/store';

const store = () => useWorkspaceStore.getState();
const tabsOf = (id: string) => store().tabs[id];

describe('workspace tabs', () => {
  beforeEach(() => useWorkspaceStore.setState({ activeConnectionId: undefined, tabs: {} }));

  it('opens each table once and activates it', () => {
    store().openConnection('c1');
    store().openTable('Orders');
    store().openTable('Users');
    store().openTable('Orders');
    expect(tabsOf('c1')).toMatchObject({ openTables: ['Orders', 'Users'], active: tableTabId('Orders') });
  });

  it('moves to the left neighbour when the active tab closes, and home after the first', () => {
    store().openConnection('c1');
    ['A-table', 'B-table', 'C-table'].forEach((t) => store().openTable(t));
    store().closeTable('C-table');
    expect(tabsOf('c1')?.active).toBe(tableTabId('B-table'));
    store().activate(tableTabId('A-table'));
    store().closeTable('A-table');
    expect(tabsOf('c1')?.active).toBe(homeTab);
    expect(tabsOf('c1')?.openTables).toEqual(['B-table']);
  });

  it('keeps a connection’s tabs and views while the user is elsewhere', () => {
    store().openConnection('c1');
    store().openTable('Orders');
    store().setTableView('Orders', 'items');
    store().closeConnection();
    store().openConnection('c2');
    expect(tabsOf('c2')?.openTables).toEqual([]);
    store().openConnection('c1');
    expect(tabsOf('c1')).toMatchObject({ openTables: ['Orders'], tableViews: { Orders: 'items' } });
  });

  it('never confuses a table named like the home tab with the home tab', () => {
    store().openConnection('c1');
    store().openTable(homeTab);
    expect(tabsOf('c1')?.active).not.toBe(homeTab);
  });

  it('forgets a deleted connection', () => {
    store().openConnection('c1');
    store().forgetConnection('c1');
    expect(store().activeConnectionId).toBeUndefined();
    expect(tabsOf('c1')).toBeUndefined();
  });
});
