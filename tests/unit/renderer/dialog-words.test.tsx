// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppInfo } from '../../../src/renderer/features/app-info/store';
import { useAppInfoStore } from '../../../src/renderer/features/app-info/store';
import { ImportDialog } from '../../../src/renderer/features/exports/import-dialog';
import { ExportDialog } from '../../../src/renderer/features/items/components/export-dialog';
import { type Harness, openHarness, testConnection } from './bridge-harness';

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
});

describe('radio groups under headings', () => {
  it('heads the Export dialog’s format and scope, each group one set of radios', () => {
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
    const shown = groups();
    expect(shown.map((group) => group.heading)).toEqual(['File format', 'What to export']);
    expect(shown[1]?.radios).toEqual(['All 12 rows fetched', '0 selected', 'Whole table']);
    // One name per group: one Tab stop each, the arrow keys move within it.
    for (const group of shown) expect(group.names.size).toBe(1);
    expect([...(shown[0]?.names ?? [])][0]).not.toBe([...(shown[1]?.names ?? [])][0]);
  });
});
