// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultAgentSettings } from '../../../src/shared/ipc/agent';
import { AgentSettingsForm } from '../../../src/renderer/features/agent/components/agent-settings-form';
import {
  ScanPacingFields,
  useScanPacing,
} from '../../../src/renderer/features/migration/components/scan-pacing-fields';
import { AssistBar } from '../../../src/renderer/features/sql/components/assist-bar';
import { examples } from '../../../src/shared/ipc/examples';
import { TableRow } from '../../../src/renderer/features/tables/components/table-row';
import { type Harness, openHarness } from './bridge-harness';
import { tableSummary } from '../../support/table-summary';

// The words a newcomer meets, rendered in a DOM (happy-dom): each abbreviation explained where it
// is shown, and "Ask" meaning one thing only (asking the assistant a question).

let harness: Harness;

beforeEach(() => {
  harness = openHarness(() => Promise.resolve({ ok: true, value: [] }));
});

afterEach(() => harness.close());

const texts = (selector: string) =>
  [...harness.host.querySelectorAll(selector)].map((element) => element.textContent.trim());

describe('plain words', () => {
  it('explains RCU, WCU and GSI in the table list', () => {
    const table = tableSummary('Orders', {
      billingMode: 'PROVISIONED',
      readCapacity: 5,
      writeCapacity: 2,
      indexes: [
        {
          name: 'byCustomer',
          kind: 'GSI',
          keys: { partitionKey: { name: 'customer', type: 'S' } },
          projection: 'ALL',
          status: 'ACTIVE',
        },
      ],
    });
    act(() =>
      harness.root.render(
        <table>
          <tbody>
            <TableRow table={table} onOpen={() => undefined} />
          </tbody>
        </table>,
      ),
    );
    const units = [...harness.host.querySelectorAll('abbr')];
    expect(units.map((unit) => unit.textContent)).toEqual(['RCU', 'WCU']);
    expect(units[0]?.title).toMatch(
      /^Read capacity units, what DynamoDB counts reads in: one reads up to 4 KB/,
    );
    expect(units[1]?.title).toMatch(
      /^Write capacity units, what DynamoDB counts writes in: one writes up to 1 KB/,
    );
    expect(harness.host.querySelector('.index-counts')?.getAttribute('title')).toBe(
      'byCustomer: global secondary index (GSI), queried by its own keys across the table',
    );
  });

  it('says "parallel readers" for Scan segments, with what they change', () => {
    function Pacing() {
      return <ScanPacingFields pacing={useScanPacing()} />;
    }
    act(() => harness.root.render(<Pacing />));
    const label = harness.host.querySelector('label');
    expect(label?.textContent).toBe('Parallel readers (Scan segments)');
    expect(label?.title).toMatch(/^DynamoDB splits a Scan into segments that are read side by side/);
  });

  it('keeps "Ask" for the assistant: the SQL workbench writes SQL from words', () => {
    act(() => harness.root.render(<AssistBar connectionId="c-words" editorText="" />));
    expect(texts('label')).toContain('SQL from words');
    expect(texts('button')).toContain('Write SQL');
    expect(harness.host.textContent).not.toMatch(/\bAsk\b/);
    // docs/API.md says what the user sees, beside the contract's name for the task.
    for (const channel of ['sql:assist', 'sql:assistContext'] as const) {
      const summary = examples[channel].summary;
      expect(summary).toContain('“SQL from words”');
      expect(summary).toContain('`ask`');
      expect(summary).not.toMatch(/\bAsk\b/);
    }
  });

  it('names the approval mode "Approve first", not "Ask"', () => {
    act(() =>
      harness.root.render(
        <AgentSettingsForm
          settings={defaultAgentSettings}
          isReadOnlyConnection={false}
          onSave={() => Promise.resolve(undefined)}
          onCancel={() => undefined}
        />,
      ),
    );
    expect(texts('.agent-modes strong')).toEqual(['Read-only', 'Approve first', 'Auto-read']);
    expect(harness.host.textContent).not.toMatch(/\bAsk\b/);
  });
});
