// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TurnOnStream } from '../../../src/renderer/features/streams/components/turn-on-stream';
import { clickButton, type Harness, openHarness, testConnection } from './bridge-harness';
import { counts, emit } from './operation-events';
import { tableSummary } from '../../support/table-summary';

// The Stream view of a table without a stream offers the change that turns one on, rendered in a
// DOM (happy-dom); the bridge stands in for main and records each call.

let harness: Harness;

beforeEach(() => {
  harness = openHarness((channel) =>
    Promise.resolve(
      channel === 'tables:update' ? { ok: true, value: { started: true } } : { ok: true, value: [] },
    ),
  );
});

afterEach(() => harness.close());

const summary = tableSummary('Orders');

const callsTo = (channel: string) => harness.calls.filter((call) => call.channel === channel);

describe('turning the stream on from the Stream view', () => {
  it('says what it does before sending tables:update, then reads the table again', async () => {
    const connection = testConnection('c-stream');
    act(() => harness.root.render(<TurnOnStream connection={connection} summary={summary} />));
    expect(harness.host.textContent).toContain('Streams are off for Orders');
    await clickButton(harness.host, 'Turn on stream…');
    expect(harness.host.textContent).toContain(
      'Every write to Orders is recorded for 24 hours in a new stream (NEW_AND_OLD_IMAGES).',
    );
    expect(callsTo('tables:update')).toEqual([]);

    await clickButton(harness.host, 'Turn on stream');
    const [update] = callsTo('tables:update');
    expect(update?.input).toMatchObject({
      connectionId: 'c-stream',
      table: 'Orders',
      change: { kind: 'stream', enabled: true, viewType: 'NEW_AND_OLD_IMAGES' },
    });
    await act(() => {
      emit(String(update?.input.requestId), {
        type: 'done',
        progress: counts(0),
        value: {
          summary: { ...summary, stream: { enabled: true, viewType: 'NEW_AND_OLD_IMAGES' } },
          notes: [],
        },
      });
      return Promise.resolve();
    });
    expect(callsTo('tables:describe').map((call) => call.input)).toEqual([
      { connectionId: 'c-stream', table: 'Orders' },
    ]);
  });

  it('sends nothing when the user cancels the confirmation', async () => {
    act(() =>
      harness.root.render(<TurnOnStream connection={testConnection('c-stream')} summary={summary} />),
    );
    await clickButton(harness.host, 'Turn on stream…');
    await clickButton(harness.host, 'Cancel');
    expect(harness.host.textContent).toContain('Turn on stream…');
    expect(callsTo('tables:update')).toEqual([]);
  });

  it('offers no button on a read-only connection, and says why', () => {
    const connection = testConnection('c-stream', { readOnly: true });
    act(() => harness.root.render(<TurnOnStream connection={connection} summary={summary} />));
    expect(harness.host.querySelectorAll('button')).toHaveLength(0);
    expect(harness.host.textContent).toContain('This connection is read-only');
  });
});
