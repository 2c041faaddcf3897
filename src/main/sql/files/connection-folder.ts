import { dataFolder } from '../../files/data-folder';

/**
 * Where a connection's SQL files live: <dataDir>/sql/<connection>/ — views.json, history.sql
 * and queries/*.sql, plain files a team can copy, diff and commit.
 */
export function connectionFolder(dataDir: string, connectionId: string): string {
  return dataFolder.connection(dataDir, 'sql', connectionId);
}
