// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ImportStateView } from '../../../src/shared/ipc/exports';
import { ImportDialog } from '../../../src/renderer/features/exports/import-dialog';
import { clickButton, type Harness, openHarness, testConnection } from './bridge-harness';
import { counts, emit } from './operation-events';

// "Import from S3…" rendered in a DOM (happy-dom), the bridge standing in for main: the sentence
// the import ends with. ImportTable's ErrorCount counts records of the source that could not
// become items (AWS: one CloudWatch log per error), so the sentence counts items, not lines.

let harness: Harness;

beforeEach(() => {
  harness = openHarness(() => Promise.resolve({ ok: true, value: { started: true } }));
});

afterEach(() => harness.close());

const connection = testConnection('c-s3-import');

async function importEnding(value: ImportStateView): Promise<string> {
  await act(() => {
    harness.root.render(
      <ImportDialog
        connection={connection}
        defaults={{
          bucket: 'exports',
          prefix: 'orders/',
          table: 'Orders',
          partitionKey: { name: 'pk', type: 'S' },
        }}
        onClose={() => undefined}
      />,
    );
    return Promise.resolve();
  });
  await clickButton(harness.host, 'Start import');
  const requestId = harness.calls.find((call) => call.channel === 'imports:start')?.input.requestId;
  if (typeof requestId !== 'string') throw new Error('imports:start was not called');
  await act(() => {
    emit(requestId, { type: 'done', progress: counts(value.importedItems), value });
    return Promise.resolve();
  });
  return harness.host.querySelector('.exports-done')?.textContent ?? '';
}

const finished = (patch: Partial<ImportStateView>): ImportStateView => ({
  importArn: 'arn:aws:dynamodb:eu-west-1:111111111111:table/Orders/import/01',
  status: 'COMPLETED',
  table: 'Orders',
  processedItems: 1_203,
  importedItems: 1_200,
  errors: 0,
  processedBytes: 52_000,
  ...patch,
});

describe('the end of an S3 import', () => {
  it('counts the source items DynamoDB could not import, and where each is logged', async () => {
    expect(await importEnding(finished({ errors: 3 }))).toBe(
      'Import completed: 1,200 items in Orders; 3 items of the source could not be imported (DynamoDB logs each one to CloudWatch Logs).',
    );
  });

  it('says one item in the singular, and nothing of errors when there were none', async () => {
    expect(await importEnding(finished({ importedItems: 1, errors: 0 }))).toBe(
      'Import completed: 1 item in Orders.',
    );
  });
});
