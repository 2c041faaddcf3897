// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Connection, TableSummary } from '../../../src/shared/ipc';
import { DeleteTable } from '../../../src/renderer/features/table/components/change/delete-table';
import { WorkspaceNotice } from '../../../src/renderer/features/workspace/components/workspace-notice';
import {
  homeTab,
  tableTabId,
  useActiveTabs,
  useWorkspaceStore,
} from '../../../src/renderer/features/workspace/store';
import { clickButton, type Harness, openHarness, typeInto } from './bridge-harness';
import { counts, emit } from './operation-events';

// Deleting a table from its Overview, rendered in a DOM (happy-dom): the bridge stands in for main
// and records each call; main's events arrive through the real operations store. The user may
// switch to the Tables tab while main is still deleting, which unmounts the view that started it.

let answerDelete: ((answer: { ok: true; value: unknown }) => void)[];
let harness: Harness;

beforeEach(() => {
  answerDelete = [];
  harness = openHarness((channel) => {
    if (channel === 'tables:delete') return new Promise((resolve) => answerDelete.push(resolve));
    // The table list read again: the table is gone.
    return Promise.resolve({ ok: true, value: [] });
  });
});

afterEach(() => {
  harness.close();
  useWorkspaceStore.setState({ activeConnectionId: undefined, tabs: {}, notice: undefined });
});

const connection = { id: 'c-delete', label: 'Local', readOnly: false, isProduction: false } as Connection;
const summary = { name: 'Orders', deletionProtection: false } as TableSummary;

async function typeAndDelete(): Promise<string> {
  typeInto(harness.host.querySelector('input'), 'Orders');
  await clickButton(harness.host, 'Delete table');
  const requestId = harness.calls.find((call) => call.channel === 'tables:delete')?.input.requestId;
  if (typeof requestId !== 'string') throw new Error('tables:delete was not called');
  await act(() => {
    answerDelete.shift()?.({ ok: true, value: { started: true } });
    return Promise.resolve();
  });
  return requestId;
}

const listReads = () =>
  harness.calls.filter((call) => call.channel === 'tables:list').map((call) => call.input);

describe('deleting a table', () => {
  it('reads the table list again when the delete ends, though the user left the table for the Tables tab', async () => {
    act(() => harness.root.render(<DeleteTable connection={connection} summary={summary} />));
    const requestId = await typeAndDelete();
    // The Tables tab replaces the table's view before main answers.
    act(() => harness.root.render(<p>Tables</p>));
    expect(listReads()).toEqual([]);
    await act(() => {
      emit(requestId, { type: 'done', progress: counts(0), value: { table: 'Orders' } });
      return Promise.resolve();
    });
    expect(listReads()).toEqual([{ connectionId: 'c-delete' }]);
  });

  it('names its confirmation box for deleting, with a visible label, apart from the purge box beside it', () => {
    act(() => harness.root.render(<DeleteTable connection={connection} summary={summary} />));
    const input = harness.host.querySelector('input');
    expect(input?.getAttribute('aria-label')).toBe('Type the table name to confirm deleting it');
    expect(input?.closest('label')?.textContent).toContain('Table name, to confirm');
  });

  it('reads nothing again when the delete failed', async () => {
    act(() => harness.root.render(<DeleteTable connection={connection} summary={summary} />));
    const requestId = await typeAndDelete();
    await act(() => {
      emit(requestId, {
        type: 'error',
        error: { code: 'ResourceInUseException', message: 'busy', retryable: true },
      });
      return Promise.resolve();
    });
    expect(listReads()).toEqual([]);
    expect(harness.host.textContent).toContain('busy');
  });
});

/**
 * The workspace as far as a delete reaches it: the notice under the tabs, then the active tab's
 * view (the table list's filter, another table, or Orders' Overview with its Delete table).
 */
function Workspace() {
  const { active } = useActiveTabs();
  return (
    <>
      <WorkspaceNotice connectionId="c-delete" />
      {active === homeTab ? (
        <input id="table-filter" type="search" aria-label="Filter tables" />
      ) : active === tableTabId('Orders') ? (
        <DeleteTable connection={connection} summary={summary} />
      ) : (
        <p>{active}</p>
      )}
    </>
  );
}

function openWorkspace(): void {
  useWorkspaceStore.getState().openConnection('c-delete');
  useWorkspaceStore.getState().openTable('Customers');
  useWorkspaceStore.getState().openTable('Orders');
  act(() => harness.root.render(<Workspace />));
}

const status = () => harness.host.querySelector('[role="status"]')?.textContent;

describe('after a table is deleted', () => {
  it('says so and lands on the table list with focus in its filter, not on the neighbour table', async () => {
    openWorkspace();
    const requestId = await typeAndDelete();
    expect(status()).toBe('');
    await act(() => {
      emit(requestId, { type: 'done', progress: counts(0), value: { table: 'Orders' } });
      return Promise.resolve();
    });
    expect(status()).toBe('Table Orders deleted.');
    expect(document.activeElement?.id).toBe('table-filter');
    expect(useWorkspaceStore.getState().tabs['c-delete']?.openTables).toEqual(['Customers']);
  });

  it('leaves a user who moved to another table there, and still says it', async () => {
    openWorkspace();
    const requestId = await typeAndDelete();
    act(() => useWorkspaceStore.getState().activate(tableTabId('Customers')));
    await act(() => {
      emit(requestId, { type: 'done', progress: counts(0), value: { table: 'Orders' } });
      return Promise.resolve();
    });
    expect(status()).toBe('Table Orders deleted.');
    expect(harness.host.textContent).toContain(tableTabId('Customers'));
    expect(useWorkspaceStore.getState().tabs['c-delete']?.openTables).toEqual(['Customers']);
  });

  it('lets the notice go when the user opens a table', async () => {
    openWorkspace();
    const requestId = await typeAndDelete();
    await act(() => {
      emit(requestId, { type: 'done', progress: counts(0), value: { table: 'Orders' } });
      return Promise.resolve();
    });
    act(() => useWorkspaceStore.getState().openTable('Customers'));
    expect(status()).toBe('');
  });
});
