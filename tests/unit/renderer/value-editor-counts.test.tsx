// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttributeValue } from '../../../src/shared/dynamo/attribute-value';
import { ValueEditor } from '../../../src/renderer/features/editor/components/value-editor';
import { type Harness, openHarness } from './bridge-harness';

// The item editor's list and map values, rendered in a DOM (happy-dom): the button that folds
// one says how much it holds, in the singular where it holds one ("▾ 1 elements" before).

let harness: Harness;

beforeEach(() => {
  harness = openHarness(() => Promise.resolve({ ok: true, value: undefined }));
});

afterEach(() => harness.close());

function foldButtonOf(value: AttributeValue): string {
  act(() =>
    harness.root.render(
      <ValueEditor
        label="lines"
        value={value}
        path={['lines']}
        issues={[]}
        depth={0}
        onChange={() => undefined}
      />,
    ),
  );
  return harness.host.querySelector('button[aria-expanded]')?.textContent ?? '';
}

describe('a list or map value in the item editor', () => {
  it.each([
    [{ L: [{ S: 'SKU-MUG-02' }] }, '▾ 1 element'],
    [{ L: [{ S: 'a' }, { N: '2' }] }, '▾ 2 elements'],
    [{ M: { sku: { S: 'SKU-MUG-02' } } }, '▾ 1 attribute'],
    [{ M: { sku: { S: 'x' }, qty: { N: '1' }, ['__proto__']: { S: 'data' } } }, '▾ 3 attributes'],
    [{ L: [] }, '▾ 0 elements'],
  ] as [AttributeValue, string][])('%j says %s', (value, shown) => {
    expect(foldButtonOf(value)).toBe(shown);
  });
});
