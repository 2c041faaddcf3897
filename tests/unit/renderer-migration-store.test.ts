import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BRIDGE_KEY } from '../../src/shared/ipc/bridge';
import { migrationKey, useMigrationStore } from '../../src/renderer/features/migration/store';

// The pre-flight page's store against a bridge standing in for main, which answers each channel
// when the test says so: the order of a start call's answer and its operation's done event is
// up to the network, and a small table's scan often ends first.
const connectionId = 'playground';
const table = 'Orders';
const key = migrationKey(connectionId, table);
let pending: Map<string, (value: unknown) => void>;
let scans: { scanId: string; state: string }[];

beforeEach(() => {
  pending = new Map();
  scans = [{ scanId: 'scan-old', state: 'done' }];
  const answerNow: Record<string, (input: { scanId?: string }) => unknown> = {
    'migration:scans': () => scans,
    'migration:report': (input) => ({ scanId: input.scanId }),
  };
  const bridge = new Proxy(
    {},
    {
      get: (_target, channel: string) => (input: { scanId?: string }) => {
        const answer = answerNow[channel];
        if (answer) return Promise.resolve({ ok: true, value: answer(input) });
        return new Promise((resolve) => pending.set(channel, (value) => resolve({ ok: true, value })));
      },
    },
  );
  (globalThis as Record<string, unknown>).window = { [BRIDGE_KEY]: bridge };
  useMigrationStore.setState({
    tables: { [key]: { scans: [], selectedScanId: 'scan-old', report: { scanId: 'scan-old' } as never } },
  });
});

afterEach(() => {
  delete (globalThis as Record<string, unknown>).window;
});

const shown = () => useMigrationStore.getState().tables[key];

/** The end of migration:scan, with the scan its done value names. */
const scanDone = { kind: 'scan', scanId: 'scan-new' } as const;

describe('the pre-flight store', () => {
  it("opens the new scan's report when its done arrives before the start call's answer", async () => {
    const started = useMigrationStore.getState().startScan(connectionId, table, { segments: 1 });
    await expect.poll(() => pending.has('migration:scan')).toBe(true);
    scans = [{ scanId: 'scan-new', state: 'done' }, ...scans];
    await useMigrationStore.getState().settle(connectionId, table, scanDone);
    pending.get('migration:scan')?.({ scanId: 'scan-new' });
    await started;
    expect(shown()?.selectedScanId).toBe('scan-new');
    expect(shown()?.report?.scanId).toBe('scan-new');
    expect(shown()?.scanRequestId).toBeUndefined();
  });

  it("opens the new scan's report when the answer comes first, as usual", async () => {
    const started = useMigrationStore.getState().startScan(connectionId, table, { segments: 1 });
    await expect.poll(() => pending.has('migration:scan')).toBe(true);
    scans = [{ scanId: 'scan-new', state: 'running' }, ...scans];
    pending.get('migration:scan')?.({ scanId: 'scan-new' });
    await started;
    expect(shown()?.scanRequestId).toBeDefined();
    scans = [{ scanId: 'scan-new', state: 'done' }, ...scans.slice(1)];
    await useMigrationStore.getState().settle(connectionId, table, scanDone);
    expect(shown()?.report?.scanId).toBe('scan-new');
  });
});
