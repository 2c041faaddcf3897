// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emptyItemsState } from '../../../src/renderer/features/items/store';
import type { AppInfo } from '../../../src/renderer/features/app-info/store';
import { useAppInfoStore } from '../../../src/renderer/features/app-info/store';
import { ImportDialog } from '../../../src/renderer/features/exports/import-dialog';
import { BulkDialog } from '../../../src/renderer/features/items/components/bulk-dialog';
import { ExportDialog } from '../../../src/renderer/features/items/components/export-dialog';
import { ImportDialog as ItemsImportDialog } from '../../../src/renderer/features/items/components/import-dialog';
import { ProgressLine } from '../../../src/renderer/features/items/components/progress-line';
import { StepCard } from '../../../src/renderer/features/agent/components/step-card';
import { OperationProgress } from '../../../src/renderer/features/operations/components/operation-progress';
import { useOperationsStore } from '../../../src/renderer/features/operations/store';
import { capacityUnitHelp } from '../../../src/renderer/ui/capacity-unit';
import { choose, type Harness, openHarness, testConnection } from './bridge-harness';

// The words of the dialogs a newcomer walks through (Export, Import, Import from S3, Delete or
// update items) and of the Items tab's progress line, rendered in a DOM (happy-dom): types in
// words with DynamoDB's code as the hint, radio groups under visible headings, RCU explained.

let harness: Harness;

beforeEach(() => {
  harness = openHarness((channel) =>
    Promise.resolve({ ok: true, value: channel === 'jobs:stopped' ? { jobs: [], setAside: [] } : [] }),
  );
  useAppInfoStore.setState({ info: { mode: 'browser' } as AppInfo });
});

afterEach(() => {
  harness.close();
  useAppInfoStore.setState({ info: undefined });
});

const connection = testConnection('c-words');
const options = (label: string) =>
  [...(harness.host.querySelector<HTMLSelectElement>(`select[aria-label="${label}"]`)?.options ?? [])].map(
    (option) => option.textContent,
  );
/** Each group's heading, and the words of its radios. */
const groups = () =>
  [...harness.host.querySelectorAll('fieldset')]
    .filter((fieldset) => fieldset.querySelector(':scope input[type="radio"]'))
    .map((fieldset) => ({
      heading: fieldset.querySelector(':scope > legend')?.textContent,
      radios: [...fieldset.querySelectorAll('label')].map((label) => label.textContent),
      names: new Set(
        [...fieldset.querySelectorAll('input[type="radio"]')].map((radio) => radio.getAttribute('name')),
      ),
    }));

describe('type words in the dialogs', () => {
  it('names the key types of Import from S3 in words, as the Create table form does', () => {
    act(() =>
      harness.root.render(
        <ImportDialog
          connection={connection}
          defaults={{ bucket: 'b', prefix: 'p/', table: 'T', partitionKey: { name: 'pk', type: 'N' } }}
          onClose={() => undefined}
        />,
      ),
    );
    expect(options('Partition key type')).toEqual(['String (S)', 'Number (N)', 'Binary (B)']);
    expect(options('Sort key type')).toEqual(['String (S)', 'Number (N)', 'Binary (B)']);
    expect(
      harness.host.querySelector<HTMLSelectElement>('select[aria-label="Partition key type"]')?.value,
    ).toBe('N');
  });

  it('names the type of a bulk update’s new value in words (it offered bare S, N, B, BOOL, NULL)', () => {
    act(() =>
      harness.root.render(
        <BulkDialog
          connection={connection}
          table="Orders"
          resultSetId="rs-1"
          selected={[]}
          names={['pk']}
          keys={{ partitionKey: { name: 'pk', type: 'S' } }}
          onClose={() => undefined}
        />,
      ),
    );
    choose(harness.host, 'Update');
    expect(options('Type of the new value')).toEqual([
      'String (S)',
      'Number (N)',
      'Binary (B)',
      'Boolean (BOOL)',
      'Null (NULL)',
    ]);
  });
});

/** The Export dialog over 12 fetched rows, none selected. */
function renderExport(): void {
  act(() =>
    harness.root.render(
      <ExportDialog
        connectionId={connection.id}
        table="Orders"
        summary={undefined}
        index={undefined}
        resultSetId="rs-1"
        total={12}
        rows={[]}
        onClose={() => undefined}
      />,
    ),
  );
}

describe('radio groups under headings', () => {
  it('heads the Export dialog’s format and scope, each group one set of radios', () => {
    renderExport();
    const shown = groups();
    expect(shown.map((group) => group.heading)).toEqual(['File format', 'What to export']);
    expect(shown[1]?.radios).toEqual(['All 12 rows fetched', '0 selected', 'Whole table']);
    // One name per group: one Tab stop each, the arrow keys move within it.
    for (const group of shown) expect(group.names.size).toBe(1);
    expect([...(shown[0]?.names ?? [])][0]).not.toBe([...(shown[1]?.names ?? [])][0]);
  });

  it('says under the formats why a whole table has no JSON array, not only in a tooltip', () => {
    renderExport();
    choose(harness.host, 'Whole table');
    const json = [...harness.host.querySelectorAll('label')]
      .find((label) => label.textContent === 'JSON array')
      ?.querySelector('input');
    expect(json?.disabled).toBe(true);
    const reason = document.getElementById(json?.getAttribute('aria-describedby') ?? '');
    expect(reason?.textContent).toBe('A whole table or index exports as JSON Lines, DynamoDB JSON or CSV.');
    expect(reason?.closest('fieldset')?.querySelector('legend')?.textContent).toBe('File format');
  });

  it('heads the Import dialog’s format, file and what happens to items already there', async () => {
    await act(() => {
      harness.root.render(
        <ItemsImportDialog connection={connection} table="Orders" onClose={() => undefined} />,
      );
      return Promise.resolve();
    });
    const headings = [...harness.host.querySelectorAll('legend')].map((legend) => legend.textContent);
    expect(headings).toEqual(['File format', 'File', 'Items already in the table']);
    expect(groups().at(-1)?.radios).toEqual([
      'Only create (never replace an existing item)',
      'Replace existing items',
    ]);
  });
});

describe('the Items tab’s progress line', () => {
  it('explains RCU in the tooltip every RCU of the app has', () => {
    act(() =>
      harness.root.render(
        <ProgressLine
          state={{
            ...emptyItemsState,
            status: 'done',
            fetched: 3,
            progress: { items: 3, pages: 1, consumedCapacity: 0.5 },
          }}
        />,
      ),
    );
    expect(harness.host.textContent).toBe('3 items · 1 page · 0.5 RCU');
    const unit = harness.host.querySelector('abbr');
    expect(unit?.textContent).toBe('RCU');
    expect(unit?.title).toBe(capacityUnitHelp.RCU);
  });

  it("explains RCU on a running operation's progress line and on the assistant's step cards", () => {
    // A Scan's progress as the event stream delivers it: the line every long read shares.
    act(() =>
      useOperationsStore.getState().receive({
        type: 'progress',
        requestId: 'r-words',
        seq: 1,
        progress: { items: 40, pages: 2, consumedCapacity: 12.5, message: 'Scanning' },
      }),
    );
    const step = {
      id: 's1',
      tool: 'query_items',
      input: { table: 'Orders' },
      status: 'done' as const,
      summary: '3 items',
      consumedCapacity: 0.5,
    };
    act(() =>
      harness.root.render(
        <>
          <OperationProgress requestId="r-words" label="Scanning" />
          <StepCard step={step} />
        </>,
      ),
    );
    const line = harness.host.querySelector('[role="status"]');
    expect(line?.textContent).toBe('Scanning · 40 items · 2 pages · 12.5 RCU');
    const head = harness.host.querySelector('.agent-step-head');
    expect(head?.textContent).toContain('0.5 RCU');
    // Opened, the card says its cost again: explained there too.
    act(() => {
      head?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    });
    const units = [...harness.host.querySelectorAll('abbr')];
    expect(units.map((unit) => [unit.textContent, unit.title])).toEqual([
      ['RCU', capacityUnitHelp.RCU],
      ['RCU', capacityUnitHelp.RCU],
      ['RCU', capacityUnitHelp.RCU],
    ]);
    act(() => useOperationsStore.getState().forget('r-words'));
  });
});
