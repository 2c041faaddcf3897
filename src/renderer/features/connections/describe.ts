import type { Connection } from '../../../shared/ipc';

export function kindLabel(kind: Connection['kind']): string {
  switch (kind) {
    case 'playground':
      return 'Local playground';
    case 'profile':
      return 'AWS profile';
    case 'keys':
      return 'Access keys';
    case 'default-chain':
      return 'Default credentials';
  }
}

/** One line that says where a connection goes: "profile prod-admin · eu-west-1 · localhost:8000". */
export function connectionSubtitle(connection: Connection): string {
  // The playground's label already says what it is; say where it runs instead.
  if (connection.kind === 'playground') return 'DynamoDB Local on this machine';
  const parts: string[] = [];
  if (connection.kind === 'profile' && connection.profile) parts.push(`profile ${connection.profile}`);
  else parts.push(kindLabel(connection.kind));
  if (connection.region !== 'local') parts.push(connection.region);
  if (connection.endpoint) parts.push(connection.endpoint.replace(/^https?:\/\//, ''));
  return parts.join(' · ');
}

export const profileKindLabels: Record<string, string> = {
  sso: 'SSO',
  'assume-role': 'Assume role',
  keys: 'Keys',
  process: 'Process',
  other: 'Other',
};
