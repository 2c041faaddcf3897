// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TableSummary } from '../../../src/shared/ipc';
import type { StoppedJob } from '../../../src/shared/ipc/jobs';
import { PurgeTable } from '../../../src/renderer/features/table/components/change/purge-table';
import { type Harness, openHarness, typeInto, testConnection } from './bridge-harness';
import { counts, emit, purged } from './operation-events';

// The Overview's purge with a stopped purge listed, rendered in a DOM (happy-dom), the bridge
// standing in for main: Resume hides the list, and when the resumed purge ends the list shows
// again as main now keeps it, not as it was before Resume.

let stopped: StoppedJob[];
let harness: Harness;

beforeEach(() => {
  stopped = [
    {
      kind: 'purge',
      id: 'purge-job-1',
      connectionId: 'c-purge',
      table: 'Orders',
      state: 'stopped',
      startedAt: '2026-12-01T10:00:00.000Z',
      updatedAt: '2026-12-01T10:05:00.000Z',
      items: 40,
      sentence: 'The purge of Orders stopped when it was cancelled after deleting 40 items.',
      canResume: true,
    },
  ];
  harness = openHarness((channel) => {
    if (channel === 'jobs:stopped')
      return Promise.resolve({ ok: true, value: { jobs: stopped, setAside: [] } });
    if (channel === 'tables:purgePreview')
      return Promise.resolve({
        ok: true,
        value: { itemCount: 2, readUnits: 1, writeUnits: 2, sentences: [] },
      });
    return Promise.resolve({ ok: true, value: { started: true } });
  });
});

afterEach(() => harness.close());

const connection = testConnection('c-purge');
const summary = { name: 'Orders', deletionProtection: false, itemCount: 2 } as TableSummary;

describe('a resumed purge', () => {
  it('takes focus to its progress, and once it ends the stopped list no longer shows it', async () => {
    await act(() => {
      harness.root.render(<PurgeTable connection={connection} summary={summary} />);
      return Promise.resolve();
    });
    typeInto(harness.host.querySelector('input[aria-label*="Orders"], .confirm-field input'), 'Orders');
    const resume = harness.host.querySelector<HTMLButtonElement>('button[aria-label^="Resume the purge"]');
    if (!resume) throw new Error('no Resume button');
    await act(async () => {
      resume.focus();
      resume.click();
      await Promise.resolve();
    });
    expect(document.activeElement?.getAttribute('aria-label')).toBe('This purge');
    const requestId = harness.calls.find((call) => call.channel === 'tables:purge')?.input.requestId;
    if (typeof requestId !== 'string') throw new Error('tables:purge was not called');
    // Main finished it and forgot its record.
    stopped = [];
    await act(async () => {
      emit(requestId, { type: 'done', progress: counts(2), value: purged });
      await Promise.resolve();
    });
    expect(harness.host.textContent).toContain('Purged.');
    expect(harness.host.textContent).not.toContain('did not finish');
  });
});
