// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportReport, TransferFormat } from '../../../src/shared/ipc/transfer';
import { ImportDialog } from '../../../src/renderer/features/items/components/import-dialog';
import { clickButton, type Harness, openHarness, testConnection } from './bridge-harness';
import { counts, emit } from './operation-events';

// The import dialog's dry-run report, rendered in a DOM (happy-dom), the bridge standing in for
// main. Its problems name the file's own parts, as the stopped-import sentence does: a CSV's rows
// (a quoted line break makes a row span lines), JSON Lines' lines, a DynamoDB-JSON document's items.

let harness: Harness;

beforeEach(() => {
  harness = openHarness((channel) => {
    if (channel === 'jobs:stopped') return Promise.resolve({ ok: true, value: { jobs: [], setAside: [] } });
    if (channel === 'files:choose')
      return Promise.resolve({ ok: true, value: { fileId: 'file-1', name: 'orders.csv' } });
    return Promise.resolve({ ok: true, value: { started: true } });
  });
});

afterEach(() => harness.close());

const connection = testConnection('c-report');

const reportOf = (format: TransferFormat): ImportReport => ({
  dryRun: true,
  format,
  total: 3,
  written: 2,
  existing: 0,
  invalid: 1,
  failed: 0,
  failures: [
    { line: 5, code: 'InvalidInput', message: 'Column "price" (N): the number "ten" is not a number.' },
  ],
  sample: [],
});

async function dryRunShowing(format: TransferFormat): Promise<HTMLElement | null> {
  await act(() => {
    harness.root.render(<ImportDialog connection={connection} table="Orders" onClose={() => undefined} />);
    return Promise.resolve();
  });
  await clickButton(harness.host, 'Choose file…');
  await clickButton(harness.host, 'Dry run');
  const requestId = harness.calls.find((call) => call.channel === 'transfer:import')?.input.requestId;
  if (typeof requestId !== 'string') throw new Error('transfer:import was not called');
  await act(() => {
    emit(requestId, { type: 'done', progress: counts(3), value: reportOf(format) });
    return Promise.resolve();
  });
  return harness.host.querySelector('.issue-list');
}

describe('the import report’s problems', () => {
  it.each([
    ['csv', 'row', 'Row 5: Column "price"'],
    ['jsonl', 'line', 'Line 5: Column "price"'],
    ['dynamodb-json', 'item', 'Item 5: Column "price"'],
  ] as const)('name a %s file’s %ss', async (format, part, first) => {
    const list = await dryRunShowing(format);
    expect(list?.getAttribute('aria-label')).toBe(`Problems by ${part}`);
    expect(list?.textContent).toContain(first);
  });
});
