import type { Connection } from '../../../shared/ipc';
import type { SaveConnectionInput } from './store';
import { connectionColors, isValidRegion } from './regions';

export type EditableKind = 'profile' | 'keys' | 'default-chain';

/** What the connection form edits: strings as typed, turned into the contract's input on save. */
export interface ConnectionDraft {
  id?: string;
  label: string;
  color: string;
  kind: EditableKind;
  profile: string;
  region: string;
  endpoint: string;
  readOnly: boolean;
  isProduction: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  hasStoredKeys: boolean;
}

export function newDraft(): ConnectionDraft {
  return {
    label: '',
    color: connectionColors[0] ?? '#1f6feb',
    kind: 'profile',
    profile: '',
    region: 'us-east-1',
    endpoint: '',
    readOnly: false,
    isProduction: false,
    accessKeyId: '',
    secretAccessKey: '',
    sessionToken: '',
    hasStoredKeys: false,
  };
}

export function draftFrom(connection: Connection): ConnectionDraft {
  return {
    ...newDraft(),
    id: connection.id,
    label: connection.label,
    color: connection.color,
    kind: connection.kind === 'playground' ? 'default-chain' : connection.kind,
    profile: connection.profile ?? '',
    region: connection.region,
    endpoint: connection.endpoint ?? '',
    readOnly: connection.readOnly,
    isProduction: connection.isProduction,
    hasStoredKeys: connection.hasStoredKeys ?? false,
  };
}

export type DraftErrors = Partial<Record<keyof ConnectionDraft, string>>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The same rules as the contract, phrased for the field they belong to. */
export function validateDraft(draft: ConnectionDraft): DraftErrors {
  const errors: DraftErrors = {};
  if (!draft.label.trim()) errors.label = 'Give the connection a name you will recognise.';
  if (!isValidRegion(draft.region.trim())) errors.region = 'Enter a region like eu-west-1.';
  if (draft.endpoint.trim() && !isHttpUrl(draft.endpoint.trim())) {
    errors.endpoint = 'Enter a full address like http://localhost:8000.';
  }
  if (draft.kind === 'profile' && !draft.profile.trim()) errors.profile = 'Pick a profile.';
  if (draft.kind === 'keys') {
    const isEnteringKeys = draft.accessKeyId !== '' || draft.secretAccessKey !== '' || !draft.hasStoredKeys;
    if (isEnteringKeys && !/^[A-Z0-9]{16,128}$/.test(draft.accessKeyId.trim())) {
      errors.accessKeyId = 'An access key id looks like AKIA… (16 or more capital letters and digits).';
    }
    if (isEnteringKeys && draft.secretAccessKey.trim().length < 16) {
      errors.secretAccessKey = 'Paste the secret access key that belongs to this key id.';
    }
  }
  return errors;
}

export function toSaveInput(draft: ConnectionDraft): SaveConnectionInput {
  const endpoint = draft.endpoint.trim();
  const wantsNewKeys = draft.kind === 'keys' && (draft.accessKeyId !== '' || draft.secretAccessKey !== '');
  return {
    connection: {
      id: draft.id,
      label: draft.label.trim(),
      color: draft.color,
      kind: draft.kind,
      profile: draft.kind === 'profile' ? draft.profile.trim() : undefined,
      region: draft.region.trim(),
      endpoint: endpoint || undefined,
      readOnly: draft.readOnly,
      isProduction: draft.isProduction,
    },
    accessKeys: wantsNewKeys
      ? {
          accessKeyId: draft.accessKeyId.trim(),
          secretAccessKey: draft.secretAccessKey.trim(),
          sessionToken: draft.sessionToken.trim() || undefined,
        }
      : undefined,
  };
}
