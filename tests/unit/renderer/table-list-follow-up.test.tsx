// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CopyDialog } from '../../../src/renderer/features/copy/copy-dialog';
import { ImportDialog } from '../../../src/renderer/features/exports/import-dialog';
import { CreateTableDialog } from '../../../src/renderer/features/tables/admin/create-table-dialog';
import { clickButton, type Harness, openHarness, typeInto, testConnection } from './bridge-harness';
import { counts, emit } from './operation-events';
import { tableSummary } from '../../support/table-summary';
import { useWorkspaceStore } from '../../../src/renderer/features/workspace/store';
import { copyReport } from '../../support/copy-report';

// Create table, Copy to… and Import from S3 rendered in a DOM (happy-dom), the bridge standing in for main. Both
// dialogs offer Close while main works (a table is followed until ACTIVE, a copy can take hours),
// and the table list must still learn of the new table once main says it is there.

let answerStart: ((answer: { ok: true; value: unknown }) => void)[];
let harness: Harness;

beforeEach(() => {
  answerStart = [];
  harness = openHarness((channel) => {
    if (channel === 'tables:create' || channel === 'copy:start' || channel === 'imports:start')
      return new Promise((resolve) => answerStart.push(resolve));
    // Lists (tables, SQL views, unfinished copies) answer empty.
    return Promise.resolve({ ok: true, value: channel === 'copy:list' ? { copies: [] } : [] });
  });
});

afterEach(() => harness.close());

const connection = testConnection('c-follow');

const listReads = () =>
  harness.calls.filter((call) => call.channel === 'tables:list').map((call) => call.input);
const input = (label: string) => harness.host.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);

/** Main accepts the start call; answers the started request's id. */
async function accept(channel: string, value: unknown): Promise<string> {
  const requestId = harness.calls.findLast((call) => call.channel === channel)?.input.requestId;
  if (typeof requestId !== 'string') throw new Error(`${channel} was not called`);
  await act(() => {
    answerStart.shift()?.({ ok: true, value });
    return Promise.resolve();
  });
  return requestId;
}

/** tables:create's done value: the new table as main describes it. */
const summary = tableSummary('Invoices');

describe('the table list after a create or a copy whose dialog was closed', () => {
  it('reads the table list again when a created table is ready, though Close was pressed while main waited', async () => {
    act(() => harness.root.render(<CreateTableDialog connection={connection} onClose={() => undefined} />));
    typeInto(harness.host.querySelector('#create-table-name'), 'Invoices');
    typeInto(input('Partition key name'), 'pk');
    await clickButton(harness.host, 'Create table');
    const requestId = await accept('tables:create', { started: true });
    // Close: the dialog goes away while DynamoDB is still making the table.
    await clickButton(harness.host, 'Close (the create goes on)');
    act(() => harness.root.render(<p>Tables</p>));
    expect(listReads()).toEqual([]);
    await act(() => {
      emit(requestId, { type: 'done', progress: counts(0), value: { summary, notes: [] } });
      return Promise.resolve();
    });
    expect(listReads()).toEqual([{ connectionId: 'c-follow' }]);
  });

  it('reads the target’s table list again when a copy ends after its dialog was closed', async () => {
    act(() =>
      harness.root.render(<CopyDialog connection={connection} table="Orders" onClose={() => undefined} />),
    );
    await clickButton(harness.host, 'Copy');
    const requestId = await accept('copy:start', { copyId: 'copy-1' });
    expect(harness.host.textContent).toContain('Close (the copy goes on)');
    act(() => harness.root.render(<p>Items</p>));
    await act(() => {
      emit(requestId, { type: 'cancelled', progress: counts(10) });
      return Promise.resolve();
    });
    // Cancelled after the target was made: it is a table now, and the list shows it.
    expect(listReads()).toEqual([{ connectionId: 'c-follow' }]);
  });

  it('offers to open the copied table once the copy is done, and opens it in the workspace', async () => {
    let closed = 0;
    useWorkspaceStore.getState().openConnection('c-follow');
    act(() =>
      harness.root.render(
        <CopyDialog connection={connection} table="Orders" onClose={() => (closed += 1)} />,
      ),
    );
    await clickButton(harness.host, 'Copy');
    const requestId = await accept('copy:start', { copyId: 'copy-2' });
    await act(() => {
      emit(requestId, {
        type: 'done',
        progress: counts(3),
        value: copyReport('c-follow', 'Orders', 'Orders-copy'),
      });
      return Promise.resolve();
    });
    expect(harness.host.textContent).toContain('Copied Orders to Orders-copy');
    await clickButton(harness.host, 'Open Orders-copy');
    expect(closed).toBe(1);
    const tabs = useWorkspaceStore.getState().tabs['c-follow'];
    expect(tabs?.openTables).toContain('Orders-copy');
    expect(tabs?.active).toBe('table:Orders-copy');
  });

  it('reads nothing again when main refused the create', async () => {
    act(() => harness.root.render(<CreateTableDialog connection={connection} onClose={() => undefined} />));
    typeInto(harness.host.querySelector('#create-table-name'), 'Invoices');
    typeInto(input('Partition key name'), 'pk');
    await clickButton(harness.host, 'Create table');
    const resolve = answerStart.shift();
    await act(() => {
      (resolve as (answer: unknown) => void)({
        ok: false,
        error: { code: 'ResourceInUseException', message: 'Invoices exists already.', retryable: false },
      });
      return Promise.resolve();
    });
    act(() => harness.root.render(<p>Tables</p>));
    expect(listReads()).toEqual([]);
  });

  it('reads the table list again when an S3 import ends after its dialog was closed, and shows the import’s counts while open', async () => {
    const defaults = { bucket: 'exports-bucket', prefix: 'data/', table: 'Orders-imported' };
    const render = () =>
      harness.root.render(
        <ImportDialog
          connection={connection}
          defaults={{ ...defaults, partitionKey: { name: 'pk', type: 'S' } }}
          onClose={() => undefined}
        />,
      );
    act(render);
    await clickButton(harness.host, 'Start import');
    const first = await accept('imports:start', { started: true });
    expect(harness.host.textContent).toContain('Importing into Orders-imported');
    const state = (table: string) => ({
      importArn: `arn:aws:dynamodb:eu-west-1:1:table/${table}/import/1`,
      status: 'COMPLETED',
      table,
      processedItems: 1_250,
      importedItems: 1_248,
      errors: 2,
      processedBytes: 90_000,
    });
    await act(() => {
      emit(first, { type: 'done', progress: counts(1_248), value: state('Orders-imported') });
      return Promise.resolve();
    });
    expect(harness.host.querySelector('[role="status"]')?.textContent).toContain(
      'Import completed: 1,248 items in Orders-imported',
    );
    expect(listReads()).toEqual([{ connectionId: 'c-follow' }]);

    // A second import, and Close while AWS still works on it: the list still learns of the table.
    await clickButton(harness.host, 'Start import');
    const second = await accept('imports:start', { started: true });
    await clickButton(harness.host, 'Close (the import goes on in AWS)');
    act(() => harness.root.render(<p>Exports</p>));
    await act(() => {
      emit(second, { type: 'done', progress: counts(1_248), value: state('Orders-imported') });
      return Promise.resolve();
    });
    expect(listReads()).toEqual([{ connectionId: 'c-follow' }, { connectionId: 'c-follow' }]);
  });
});
