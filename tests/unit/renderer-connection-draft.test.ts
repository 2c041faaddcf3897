import { describe, expect, it } from 'vitest';
import { saveConnectionInput, type Connection } from '../../src/shared/ipc';
import {
  draftFrom,
  newDraft,
  toSaveInput,
  validateDraft,
} from '../../src/renderer/features/connections/draft';

describe('connection form', () => {
  it('explains each missing or malformed field before anything is sent', () => {
    const errors = validateDraft({ ...newDraft(), region: 'Ireland', endpoint: 'localhost:8000' });
    expect(errors.label).toMatch(/name/);
    expect(errors.region).toMatch(/eu-west-1/);
    expect(errors.endpoint).toMatch(/http:\/\/localhost:8000/);
    expect(errors.profile).toMatch(/profile/);
  });

  it('produces input the contract accepts for a profile connection', () => {
    const draft = {
      ...newDraft(),
      label: ' Prod ',
      profile: 'prod-admin',
      region: 'eu-west-1',
      isProduction: true,
    };
    expect(validateDraft(draft)).toEqual({});
    const input = toSaveInput(draft);
    expect(saveConnectionInput.parse(input)).toEqual(input);
    expect(input.connection.label).toBe('Prod');
    expect(input.connection.endpoint).toBeUndefined();
    expect(input.accessKeys).toBeUndefined();
  });

  it('sends access keys only when the user typed new ones', () => {
    const base = { ...newDraft(), label: 'Keys', kind: 'keys' as const, region: 'us-east-1' };
    const typed = {
      ...base,
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    };
    expect(validateDraft(typed)).toEqual({});
    expect(saveConnectionInput.parse(toSaveInput(typed)).accessKeys?.accessKeyId).toBe(
      'AKIAIOSFODNN7EXAMPLE',
    );

    // Editing a connection whose keys are stored: blank key fields keep them.
    const edit = { ...base, id: 'c1', hasStoredKeys: true };
    expect(validateDraft(edit)).toEqual({});
    expect(toSaveInput(edit).accessKeys).toBeUndefined();
    expect(validateDraft({ ...base, accessKeyId: 'nope' }).accessKeyId).toMatch(/AKIA/);
  });

  it('round-trips a saved connection through the form unchanged', () => {
    const saved: Connection = {
      id: 'abc',
      label: 'LocalStack',
      color: '#8250df',
      kind: 'default-chain',
      region: 'us-east-1',
      endpoint: 'http://localhost:4566',
      readOnly: true,
      isProduction: false,
    };
    const { connection } = toSaveInput(draftFrom(saved));
    expect(connection).toEqual({ ...saved, profile: undefined });
  });
});
