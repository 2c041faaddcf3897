import { describe, expect, it } from 'vitest';
import { tagEdits } from '../../../src/shared/dynamo/tag-edits';

describe('tagEdits', () => {
  const current = [
    { key: 'team', value: 'payments' },
    { key: 'env', value: 'prod' },
    { key: 'constructor', value: 'x' },
  ];

  it('sends only new and changed tags, and removes the current keys the user took out', () => {
    const edited = [
      { key: 'team', value: 'payments' },
      { key: 'env', value: 'staging' },
      { key: 'owner', value: 'ana' },
      { key: '', value: '' },
    ];
    expect(tagEdits(current, edited)).toEqual({
      set: [
        { key: 'env', value: 'staging' },
        { key: 'owner', value: 'ana' },
      ],
      remove: ['constructor'],
    });
  });

  it('an untouched list changes nothing', () => {
    expect(tagEdits(current, current)).toEqual({ set: [], remove: [] });
  });
});
