import { createHash } from 'node:crypto';
import path from 'node:path';
import { type HealthReport, healthReportSchema } from '../../shared/ipc/health';
import { readDataFileOrFail, stringsNamed } from '../core/data-files';
import { writeFileAtomic } from '../files/atomic-file';
import { dataFolder } from '../files/data-folder';

/**
 * The last health report of each table, under <dataDir>/health/<connection>/, so the Health tab
 * shows it after a restart. One file per table: the name a safe spelling of the table's plus a
 * short hash (table names are data; two names never share a file).
 */
function reportFile(dataDir: string, connectionId: string, table: string): string {
  const safe = table.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 100);
  const hash = createHash('sha256').update(table).digest('hex').slice(0, 8);
  return path.join(dataFolder.connection(dataDir, 'health', connectionId), `${safe}-${hash}.json`);
}

export function saveLastHealthReport(dataDir: string, report: HealthReport): Promise<void> {
  return writeFileAtomic(reportFile(dataDir, report.connectionId, report.table), JSON.stringify(report));
}

/** The table's last report, or undefined when it was never checked; an unreadable file is set aside with a sentence. */
export async function lastHealthReport(
  dataDir: string,
  connectionId: string,
  table: string,
): Promise<HealthReport | undefined> {
  const report = await readDataFileOrFail(reportFile(dataDir, connectionId, table), {
    what: `The last health report of ${table}`,
    parse: (json) => healthReportSchema.parse(json),
    held: (text) => {
      const [createdAt] = stringsNamed(text, 'createdAt');
      return createdAt === undefined ? undefined : `the check of ${createdAt}`;
    },
    instead: 'The Health tab shows no report until the table is checked again.',
  });
  // A file copied from elsewhere under this name is not this table's report.
  return report && report.table === table && report.connectionId === connectionId ? report : undefined;
}
