// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppInfo } from '../../../src/renderer/features/app-info/store';
import { useAppInfoStore } from '../../../src/renderer/features/app-info/store';
import { ImportDialog } from '../../../src/renderer/features/exports/import-dialog';
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
