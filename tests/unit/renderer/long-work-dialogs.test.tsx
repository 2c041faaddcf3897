// @vitest-environment happy-dom
import { act, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppInfo } from '../../../src/renderer/features/app-info/store';
import { useAppInfoStore } from '../../../src/renderer/features/app-info/store';
import { CopyDialog } from '../../../src/renderer/features/copy/copy-dialog';
import { ImportDialog } from '../../../src/renderer/features/exports/import-dialog';
import { BulkDialog } from '../../../src/renderer/features/items/components/bulk-dialog';
import { ExportDialog } from '../../../src/renderer/features/items/components/export-dialog';
import { ImportDialog as ItemsImportDialog } from '../../../src/renderer/features/items/components/import-dialog';
import { CreateTableDialog } from '../../../src/renderer/features/tables/admin/create-table-dialog';
import { choose, type Harness, openHarness, pressEnter, testConnection, typeInto } from './bridge-harness';

// The dialogs that start long work (Create table, Copy to…, Export, Import from S3, Import into a
// table, Delete or update items), rendered in a DOM (happy-dom) with the bridge standing in for
// main: each has its primary action in the same place (the footer's right, after Cancel and the
// step before it), Enter in a field runs the next step, and Escape closes. Import and the bulk
// change had their own footers: Dry run and Import in the body, a bare Close.

let harness: Harness;

beforeEach(() => {
  // The starts are accepted; the lists (SQL views, unfinished copies, stopped exports) are empty.
  const starts = new Set([
    'tables:create',
    'copy:start',
    'transfer:exportTable',
    'imports:start',
    'transfer:import',
  ]);
  harness = openHarness((channel) =>
    Promise.resolve({
      ok: true,
      value: starts.has(channel)
        ? { started: true }
        : channel === 'copy:list'
          ? { copies: [] }
          : channel === 'jobs:stopped'
            ? { jobs: [], setAside: [] }
            : channel === 'bulk:preview'
              ? { count: 1, sample: [], request: null, needsConfirmation: false }
              : [],
    }),
  );
  useAppInfoStore.setState({ info: { mode: 'browser' } as AppInfo });
});

afterEach(() => {
  harness.close();
  useAppInfoStore.setState({ info: undefined });
});

const connection = testConnection('c-dialogs');
const onClose = vi.fn();
const input = (label: string) => harness.host.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`);
const footerButtons = () =>
  [...harness.host.querySelectorAll('.dialog-footer button')].map((button) => button.textContent);
const started = (channel: string) => harness.calls.filter((call) => call.channel === channel).length;

/** Renders the dialog and lets the lists it asks main for (unfinished copies, stopped work) arrive. */
async function show(dialog: ReactNode): Promise<void> {
  await act(() => {
    harness.root.render(dialog);
    return Promise.resolve();
  });
}

/** Escape on a modal <dialog>: the browser fires "cancel" at it. */
function pressEscape(): void {
  act(() => {
    harness.host.querySelector('dialog')?.dispatchEvent(new Event('cancel', { cancelable: true }));
  });
}

interface Case {
  name: string;
  dialog: () => ReactNode;
  primary: string;
  /** The step before the primary action, when the dialog has one (Dry run). */
  before?: string;
  /** What Enter in the filled field starts. */
  channel: string;
  /** Fills what the start needs; answers the field Enter is pressed in. */
  fill: () => HTMLInputElement | null;
}

const cases: Case[] = [
  {
    name: 'Create table',
    dialog: () => <CreateTableDialog connection={connection} onClose={onClose} />,
    primary: 'Create table',
    channel: 'tables:create',
    fill: () => {
      typeInto(harness.host.querySelector('#create-table-name'), 'Invoices');
      typeInto(input('Partition key name'), 'pk');
      return input('Partition key name');
    },
  },
  {
    name: 'Copy to…',
    dialog: () => <CopyDialog connection={connection} table="Orders" onClose={onClose} />,
    primary: 'Copy',
    channel: 'copy:start',
    fill: () => input('Target table'),
  },
  {
    name: 'Export (the whole table)',
    dialog: () => (
      <ExportDialog
        connectionId={connection.id}
        table="Orders"
        summary={undefined}
        index={undefined}
        resultSetId={undefined}
        total={0}
        rows={[]}
        onClose={onClose}
      />
    ),
    primary: 'Export table',
    channel: 'transfer:exportTable',
    fill: () => input("File name in DynoTable's export folder"),
  },
  {
    name: 'Import from S3',
    dialog: () => (
      <ImportDialog
        connection={connection}
        defaults={{
          bucket: 'exports-bucket',
          prefix: 'data/',
          table: 'Orders-imported',
          partitionKey: { name: 'pk', type: 'S' },
        }}
        onClose={onClose}
      />
    ),
    primary: 'Start import',
    channel: 'imports:start',
    fill: () => input('Source bucket'),
  },
  {
    name: 'Import into a table',
    dialog: () => <ItemsImportDialog connection={connection} table="Orders" onClose={onClose} />,
    primary: 'Import',
    before: 'Dry run',
    // Enter's first step is the dry run, which writes nothing.
    channel: 'transfer:import',
    fill: () => {
      typeInto(input("A file on the server, in DynoTable's export folder"), 'orders.jsonl');
      return input("A file on the server, in DynoTable's export folder");
    },
  },
  {
    name: 'Delete or update items',
    dialog: () => (
      <BulkDialog
        connection={connection}
        table="Orders"
        resultSetId="rs-1"
        selected={[{ pk: { S: 'a' } }]}
        names={['pk', 'status']}
        keys={{ partitionKey: { name: 'pk', type: 'S' } }}
        onClose={onClose}
      />
    ),
    primary: 'Preview',
    // Enter's first step is the preview, which writes nothing.
    channel: 'bulk:preview',
    fill: () => {
      choose(harness.host, 'Update');
      typeInto(input('Attribute to set'), 'status');
      typeInto(input('New value'), 'shipped');
      return input('New value');
    },
  },
];

describe.each(cases)('the $name dialog', ({ dialog, primary, before, channel, fill }) => {
  it('has Cancel then its primary action in the footer, and nothing to start in the body', async () => {
    await show(dialog());
    expect(footerButtons()).toEqual(['Cancel', ...(before ? [before] : []), primary]);
    const body = [...harness.host.querySelectorAll('.dialog-body button')].map((b) => b.textContent);
    expect(body).not.toContain(primary);
    if (before) expect(body).not.toContain(before);
  });

  it('names each of its buttons apart, the header’s × from the footer’s Cancel or Close', async () => {
    await show(dialog());
    const names = [...harness.host.querySelectorAll('dialog button')].map(
      (button) => button.getAttribute('aria-label') ?? button.textContent,
    );
    expect(names).toContain('Close the dialog');
    expect(names.length).toBeGreaterThan(2);
    expect(new Set(names).size).toBe(names.length);
  });

  it('starts on Enter in a field, as its primary button does', async () => {
    await show(dialog());
    const field = fill();
    expect(started(channel)).toBe(0);
    await pressEnter(field);
    expect(started(channel)).toBe(1);
  });

  it('closes on Escape before anything started', async () => {
    onClose.mockClear();
    await show(dialog());
    pressEscape();
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(started(channel)).toBe(0);
  });
});
