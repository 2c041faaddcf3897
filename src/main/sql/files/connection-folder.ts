import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * Where a connection's SQL files live: <dataDir>/sql/<connection>/ — views.json, history.sql
 * and queries/*.sql, plain files a team can copy, diff and commit. Ids become safe folder
 * names (an unusual id gets a short hash so two ids never share a folder).
 */
export function connectionFolder(dataDir: string, connectionId: string): string {
  const safe = connectionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  const name =
    safe === connectionId
      ? safe
      : `${safe}-${createHash('sha256').update(connectionId).digest('hex').slice(0, 8)}`;
  return path.join(dataDir, 'sql', name);
}
