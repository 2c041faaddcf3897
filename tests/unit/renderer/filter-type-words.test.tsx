// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConditionRow } from '../../../src/renderer/features/query/components/condition-row';
import type { ConditionDraft } from '../../../src/renderer/features/query/builder-state';
import { type Harness, openHarness } from './bridge-harness';

// The filter builder's type choice, rendered in a DOM (happy-dom): a newcomer reads the type's
// name, with DynamoDB's code beside it for those who know it. It offered bare S, N, B, BOOL, NULL.

let harness: Harness;
const changes: ConditionDraft[] = [];

beforeEach(() => {
  harness = openHarness(() => Promise.resolve({ ok: true, value: undefined }));
  changes.length = 0;
});

afterEach(() => harness.close());

const draft = (op: ConditionDraft['op']): ConditionDraft => ({
  id: 'c1',
  path: 'currency',
  op,
  type: 'S',
  value: 'EUR',
  value2: '',
  sizeOp: '>',
});

function typeChoice(op: ConditionDraft['op']): HTMLSelectElement {
  act(() =>
    harness.root.render(
      <ConditionRow
        draft={draft(op)}
        names={['currency']}
        onChange={(next) => changes.push(next)}
        onRemove={() => undefined}
      />,
    ),
  );
  const select = harness.host.querySelector<HTMLSelectElement>('select[aria-label="Value type"]');
  if (!select) throw new Error('no type choice');
  return select;
}

const shown = (select: HTMLSelectElement) => [...select.options].map((option) => option.textContent);

describe('the filter builder’s value type', () => {
  it('names each type in words, its code as the hint', () => {
    expect(shown(typeChoice('='))).toEqual([
      'String (S)',
      'Number (N)',
      'Binary (B)',
      'Boolean (BOOL)',
      'Null (NULL)',
    ]);
  });

  it('offers every type for "is of type", sets and documents too', () => {
    expect(shown(typeChoice('attribute_type'))).toEqual([
      'String (S)',
      'Number (N)',
      'Binary (B)',
      'Boolean (BOOL)',
      'Null (NULL)',
      'List (L)',
      'Map (M)',
      'String set (SS)',
      'Number set (NS)',
      'Binary set (BS)',
    ]);
  });

  it('still builds the condition with DynamoDB’s code', () => {
    const select = typeChoice('=');
    act(() => {
      select.value = 'N';
      select.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(changes.at(-1)?.type).toBe('N');
  });
});
