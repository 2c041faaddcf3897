import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * Where one area of the data folder keeps a connection's files: <dataDir>/<area>/<connection>/.
 * Ids become safe folder names (an unusual id gets a short hash so two ids never share a folder).
 */
export function connectionDataFolder(dataDir: string, area: string, connectionId: string): string {
  const safe = connectionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  const name =
    safe === connectionId
      ? safe
      : `${safe}-${createHash('sha256').update(connectionId).digest('hex').slice(0, 8)}`;
  return path.join(dataDir, area, name);
}
