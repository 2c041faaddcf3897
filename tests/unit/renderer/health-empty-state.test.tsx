// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HealthPage } from '../../../src/renderer/features/health/components/health-page';
import { type Harness, openHarness, testConnection } from './bridge-harness';

// A table's Health tab before its first check, rendered in a DOM (happy-dom), the bridge standing
// in for main with no earlier report: the empty state says what the button will read (it said
// only "No check yet.", where Schema's says what its read does).

let harness: Harness;

beforeEach(() => {
  harness = openHarness((channel) =>
    Promise.resolve(channel === 'health:latest' ? { ok: true, value: null } : { ok: true, value: undefined }),
  );
});

afterEach(() => harness.close());

async function shownBeforeAnyCheck(): Promise<HTMLElement> {
  await act(() => {
    harness.root.render(
      <HealthPage connection={testConnection('c-health-empty')} table="Orders" description={undefined} />,
    );
    return Promise.resolve();
  });
  return harness.host;
}

const emptyState = (host: HTMLElement) =>
  [...host.querySelectorAll('p')].find((p) => p.textContent.startsWith('No check yet'))?.textContent;

describe('the Health tab before a check', () => {
  it('says what Check health reads, and that it changes nothing', async () => {
    const host = await shownBeforeAnyCheck();
    expect(emptyState(host)).toBe(
      "No check yet: Check health reads about 1,000 items spread over the table and the window's CloudWatch figures, and changes nothing.",
    );
  });

  it('follows the Read choice: a full scan reads every item', async () => {
    const host = await shownBeforeAnyCheck();
    const read = host.querySelector('select');
    if (!read) throw new Error('no Read choice');
    act(() => {
      read.value = 'full';
      read.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(emptyState(host)).toContain('Check health reads every item of the table');
  });
});
