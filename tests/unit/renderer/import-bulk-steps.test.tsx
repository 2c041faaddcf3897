// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppInfo } from '../../../src/renderer/features/app-info/store';
import { useAppInfoStore } from '../../../src/renderer/features/app-info/store';
import { BulkDialog } from '../../../src/renderer/features/items/components/bulk-dialog';
import { ImportDialog } from '../../../src/renderer/features/items/components/import-dialog';
import type { ImportReport } from '../../../src/shared/ipc/transfer';
import {
  choose,
  clickButton,
  type Harness,
  openHarness,
  pressEnter,
  testConnection,
  typeInto,
} from './bridge-harness';
import { counts, emit } from './operation-events';

// Import into a table and Delete or update items on the shared dialog footer, rendered in a DOM
// (happy-dom) with the bridge standing in for main: the write follows the step that shows what it
// would do (Dry run, Preview), for what is chosen now; Enter runs the next step; the footer's
// Cancel becomes "Close (… goes on)" while the write runs and Close after.

let harness: Harness;

beforeEach(() => {
  harness = openHarness((channel) => {
    if (channel === 'jobs:stopped') return Promise.resolve({ ok: true, value: { jobs: [], setAside: [] } });
    if (channel === 'bulk:preview')
      return Promise.resolve({
        ok: true,
        value: {
          count: 2,
          sample: [],
          request: { UpdateExpression: 'SET #a = :v' },
          needsConfirmation: false,
        },
      });
    return Promise.resolve({ ok: true, value: { started: true } });
  });
  useAppInfoStore.setState({ info: { mode: 'browser' } as AppInfo });
});

afterEach(() => {
  harness.close();
  useAppInfoStore.setState({ info: undefined });
});

const connection = testConnection('c-steps');
const input = (label: string) => harness.host.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);
const footer = () => harness.host.querySelector('.dialog-footer');
const footerButton = (words: string) =>
  [...(footer()?.querySelectorAll('button') ?? [])].find((button) => button.textContent === words);
const footerWords = () =>
  [...(footer()?.querySelectorAll('button') ?? [])].map((button) => button.textContent);
const calls = (channel: string) => harness.calls.filter((call) => call.channel === channel);
const serverFile = "A file on the server, in DynoTable's export folder";

const report = (dryRun: boolean): ImportReport => ({
  dryRun,
  format: 'jsonl',
  total: 2,
  written: 2,
  existing: 0,
  invalid: 0,
  failed: 0,
  failures: [],
  sample: [],
});

/** Main ends the last transfer:import started. */
async function endImport(dryRun: boolean): Promise<void> {
  const requestId = calls('transfer:import').at(-1)?.input.requestId;
  if (typeof requestId !== 'string') throw new Error('transfer:import was not called');
  await act(() => {
    emit(requestId, { type: 'done', progress: counts(2), value: report(dryRun) });
    return Promise.resolve();
  });
}

describe('Import into a table', () => {
  beforeEach(async () => {
    await act(() => {
      harness.root.render(<ImportDialog connection={connection} table="Orders" onClose={() => undefined} />);
      return Promise.resolve();
    });
  });

  it('offers Import once the dry run of the chosen file has reported, and says why before', async () => {
    expect(footerButton('Import')?.disabled).toBe(true);
    expect(footer()?.textContent).toContain('Choose a file; a dry run then shows what Import would write.');
    typeInto(input(serverFile), 'orders.jsonl');
    expect(footer()?.textContent).toContain('A dry run reads the file and writes nothing');
    await clickButton(harness.host, 'Dry run');
    expect(calls('transfer:import').map((call) => call.input.dryRun)).toEqual([true]);
    // Still reading: the report is not on screen yet, and the progress says a dry run, not an import.
    expect(footerButton('Import')?.disabled).toBe(true);
    expect(harness.host.querySelector('[role="group"][aria-label="Dry run"]')?.textContent).toContain(
      'Dry run',
    );
    expect(harness.host.textContent).not.toContain('Importing');
    await endImport(true);
    expect(harness.host.textContent).toContain('Dry run: 2 read · 2 would be written');
    expect(footerButton('Import')?.disabled).toBe(false);
    expect(footerWords()).toEqual(['Close', 'Dry run', 'Import']);
  });

  it('asks for another dry run when the mode or file changes after one', async () => {
    typeInto(input(serverFile), 'orders.jsonl');
    await clickButton(harness.host, 'Dry run');
    await endImport(true);
    choose(harness.host, 'Replace existing items');
    expect(footerButton('Import')?.disabled).toBe(true);
    // Enter runs the next step: a dry run of what is chosen now, not the import.
    await pressEnter(input(serverFile));
    expect(calls('transfer:import').map((call) => [call.input.dryRun, call.input.mode])).toEqual([
      [true, 'create-only'],
      [true, 'overwrite'],
    ]);
    await endImport(true);
    typeInto(input(serverFile), 'other.jsonl');
    expect(footerButton('Import')?.disabled).toBe(true);
  });

  it('runs the import on Enter after its dry run, and says it goes on while it runs', async () => {
    typeInto(input(serverFile), 'orders.jsonl');
    await pressEnter(input(serverFile));
    await endImport(true);
    await pressEnter(input(serverFile));
    expect(calls('transfer:import').map((call) => call.input.dryRun)).toEqual([true, false]);
    expect(footerWords()).toEqual(['Close (the import goes on)', 'Dry run', 'Import']);
    // A second press while it runs starts nothing.
    await clickButton(footer() ?? harness.host, 'Import');
    expect(calls('transfer:import')).toHaveLength(2);
    await endImport(false);
    expect(footerWords()[0]).toBe('Close');
    expect(harness.host.textContent).toContain('2 read · 2 written');
  });
});

describe('Delete or update items', () => {
  beforeEach(() => {
    act(() =>
      harness.root.render(
        <BulkDialog
          connection={connection}
          table="Orders"
          resultSetId="rs-1"
          selected={[{ pk: { S: 'a' } }, { pk: { S: 'b' } }]}
          names={['pk', 'status']}
          keys={{ partitionKey: { name: 'pk', type: 'S' } }}
          onClose={() => undefined}
        />,
      ),
    );
  });

  it('says what Preview waits for in the footer, not only in a tooltip', () => {
    expect(footerButton('Preview')?.disabled).toBe(true);
    expect(footer()?.textContent).toContain('Choose Delete or Update.');
    choose(harness.host, 'Every queried item');
    choose(harness.host, 'Delete');
    expect(footerButton('Preview')?.disabled).toBe(false);
  });

  it('previews again when the update changes after a preview, so it writes what was shown', async () => {
    choose(harness.host, 'Update');
    typeInto(input('Attribute to set'), 'status');
    typeInto(input('New value'), 'shipped');
    await pressEnter(input('New value'));
    expect(footerWords()).toEqual(['Cancel', 'Update 2']);
    typeInto(input('New value'), 'lost');
    expect(footerWords()).toEqual(['Cancel', 'Preview']);
    expect(calls('bulk:start')).toHaveLength(0);
    await pressEnter(input('New value'));
    await pressEnter(input('New value'));
    const started = calls('bulk:start');
    expect(started).toHaveLength(1);
    expect(JSON.stringify(started[0]?.input.action)).toContain('"lost"');
    expect(footerWords()[0]).toBe('Close (the change goes on)');
  });
});
