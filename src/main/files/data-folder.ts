import { createHash } from 'node:crypto';
import path from 'node:path';

/**
 * Every file and folder DynoTable keeps in its data folder, named in one place: a caller asks
 * here instead of joining names onto the data folder itself, so the layout can be read (and
 * changed, with a conversion) from this one file. tests/unit/lint/data-folder.test.ts fails when
 * a path is joined onto the data folder anywhere else.
 */

/** The resumable jobs that keep a checkpoint record in the data folder (`jobs/<kind>/`). */
export type StoredJobKind = 'preflight' | 'schema' | 'copy' | 'export' | 'fix' | 'import' | 'purge';

/** The areas that keep one folder per connection: <data>/<area>/<connection>/. */
export type ConnectionArea = 'sql' | 'journal' | 'health';

/** The pre-flight's per-table settings, one folder each under <data>/migration/. */
export type MigrationSettingsFolder = 'acknowledgements' | 'models' | 'dynamoose';

/** Where the job stores of earlier releases kept their files; kinds that came later have none. */
const legacyJobs: Partial<Record<StoredJobKind, (dataDir: string) => string>> = {
  copy: (dataDir) => path.join(dataDir, 'copies'),
  export: (dataDir) => path.join(dataDir, 'table-exports'),
  preflight: (dataDir) => path.join(dataDir, 'migration', 'scans'),
  schema: (dataDir) => path.join(dataDir, 'schema'),
  fix: (dataDir) => path.join(dataDir, 'migration', 'plans'),
};

export const dataFolder = {
  workspace: (dataDir: string) => path.join(dataDir, 'workspace.json'),
  connections: (dataDir: string) => path.join(dataDir, 'connections.json'),
  /** One ciphertext file per connection. */
  secrets: (dataDir: string) => path.join(dataDir, 'secrets'),
  agentSettings: (dataDir: string) => path.join(dataDir, 'agent-settings.json'),
  agentAudit: (dataDir: string) => path.join(dataDir, 'agent-audit.jsonl'),
  mcpExposures: (dataDir: string) => path.join(dataDir, 'mcp-exposures.json'),
  /** Each connection's SQL scan limit and last Athena settings (one file, read by both rooms). */
  athenaSettings: (dataDir: string) => path.join(dataDir, 'athena-settings.json'),
  journalSettings: (dataDir: string) => path.join(dataDir, 'journal', 'settings.json'),
  /** Says the playground's sample table was seeded completely. */
  sampleSeeded: (dataDir: string) => path.join(dataDir, 'sample-seeded.json'),
  /** Where exports are saved by default, and browser mode's only export destination. */
  exports: (dataDir: string) => path.join(dataDir, 'exports'),
  /** Import files uploaded by browser mode. */
  uploads: (dataDir: string) => path.join(dataDir, 'uploads'),
  /** S3 export folders uploaded by browser mode. */
  exportUploads: (dataDir: string) => path.join(dataDir, 'export-uploads'),
  migrationSettings: (dataDir: string, folder: MigrationSettingsFolder) =>
    path.join(dataDir, 'migration', folder),
  /** The mailbox between `dynotable mcp` on stdio and the running app (mcp/proposal-files.ts). */
  mcpProposals: (dataDir: string) => path.join(dataDir, 'mcp-proposals'),
  /** One folder per resumable job kind: `<id>.json` (the checkpoint record) and the job's side files. */
  jobs: (dataDir: string, kind: StoredJobKind) => path.join(dataDir, 'jobs', kind),
  /**
   * Where one area keeps a connection's files. Ids become safe folder names (an unusual id gets
   * a short hash so two ids never share a folder).
   */
  connection: (dataDir: string, area: ConnectionArea, connectionId: string) => {
    const safe = connectionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
    const name =
      safe === connectionId
        ? safe
        : `${safe}-${createHash('sha256').update(connectionId).digest('hex').slice(0, 8)}`;
    return path.join(dataDir, area, name);
  },
  /** Where the job stores of earlier releases kept their files; read once and converted (jobs/legacy-jobs.ts). */
  legacyJobs,
};

/**
 * The folders DynoTable writes atomically into, walked for a killed writer's temp files at start;
 * the Chromium folders beside ours are never walked.
 */
export function ownFolders(dataDir: string): string[] {
  return [
    dataFolder.secrets(dataDir),
    path.join(dataDir, 'jobs'),
    path.join(dataDir, 'migration'),
    path.join(dataDir, 'sql'),
    path.join(dataDir, 'journal'),
    path.join(dataDir, 'health'),
    dataFolder.mcpProposals(dataDir),
    ...Object.values(dataFolder.legacyJobs).map((folder) => folder(dataDir)),
  ];
}
