import os from 'node:os';
import { z } from 'zod';
import {
  type AthenaSavedSettings,
  type AthenaSettings,
  athenaSettingsSchema,
  scanLimitsSchema,
} from '../../shared/ipc/athena';
import { writeFileAtomic } from '../files/atomic-file';
import { readDataFileOrFail } from '../core/data-files';
import { defaultLimits, type ScanLimits } from './scan-limit';
import { dataFolder } from '../files/data-folder';

/**
 * A connection's SQL settings, in <dataDir>/athena-settings.json (the name it has always had):
 * its scan limit and last Athena settings, in
 * main's data folder so sql:run holds every caller (the workbench, the agent, MCP) to the limit
 * the user set, and a restart or another window finds it. Connections are entries of an array,
 * not keys, like the workspace file.
 */
const entrySchema = z.object({
  connectionId: z.string(),
  limits: scanLimitsSchema.optional(),
  athena: athenaSettingsSchema.optional(),
});
const fileSchema = z.object({ version: z.literal(1), connections: z.array(entrySchema) });
type Entry = z.infer<typeof entrySchema>;

function file(dataDir: string): string {
  return dataFolder.athenaSettings(dataDir);
}

/**
 * An unreadable file is set aside and this call fails with the sentence that says so; the next
 * one finds no file and uses the defaults (a limit still holds), and a save starts a new file.
 */
async function readAll(dataDir: string): Promise<Entry[]> {
  const read = await readDataFileOrFail(file(dataDir), {
    what: 'Your scan limits and Athena settings',
    parse: (json) => fileSchema.parse(json).connections,
    held: (text) => {
      const connections = text.match(/"connectionId"\s*:/g)?.length ?? 0;
      return connections > 0
        ? `settings of ${connections} connection${connections === 1 ? '' : 's'}`
        : undefined;
    },
    instead: 'SQL uses the default scan limit until you set one again.',
  });
  return read ?? [];
}

/** Saves run one after another, so two quick changes never lose one. */
let queue: Promise<unknown> = Promise.resolve();

function update(dataDir: string, connectionId: string, change: (entry: Entry) => Entry): Promise<void> {
  const write = queue.then(async () => {
    const all = await readAll(dataDir);
    const at = all.findIndex((e) => e.connectionId === connectionId);
    const next = change(at >= 0 ? all[at]! : { connectionId });
    if (at >= 0) all[at] = next;
    else all.push(next);
    await writeFileAtomic(file(dataDir), JSON.stringify({ version: 1, connections: all }, null, 2));
  });
  queue = write.catch(() => undefined);
  return write;
}

export async function loadAthenaSettings(
  dataDir: string,
  connectionId: string,
): Promise<AthenaSavedSettings> {
  const entry = (await readAll(dataDir)).find((e) => e.connectionId === connectionId);
  const machineMemoryBytes = os.totalmem();
  const fallback = defaultLimits(machineMemoryBytes);
  return {
    limits: entry?.limits ?? fallback,
    isDefault: entry?.limits === undefined,
    defaultLimits: fallback,
    machineMemoryBytes,
    ...(entry?.athena ? { athena: entry.athena } : {}),
  };
}

/** The limit sql:run and athena:plan hold a connection's statements to. */
export async function scanLimitOf(dataDir: string, connectionId: string): Promise<ScanLimits> {
  return (await loadAthenaSettings(dataDir, connectionId)).limits;
}

/** null: back to the default. */
export async function saveScanLimits(
  dataDir: string,
  connectionId: string,
  limits: ScanLimits | null,
): Promise<AthenaSavedSettings> {
  await update(dataDir, connectionId, ({ limits: _old, ...rest }) => (limits ? { ...rest, limits } : rest));
  return loadAthenaSettings(dataDir, connectionId);
}

/**
 * What the user ran on Athena with last, offered the next time (never credentials). A run over
 * a recent export names no export bucket: the one named before is kept for the next export.
 */
export function rememberAthenaSettings(
  dataDir: string,
  connectionId: string,
  settings: AthenaSettings,
): Promise<void> {
  return update(dataDir, connectionId, (entry) => {
    const kept =
      settings.exportBucket === undefined && entry.athena?.exportBucket !== undefined
        ? {
            exportBucket: entry.athena.exportBucket,
            ...(entry.athena.exportPrefix === undefined ? {} : { exportPrefix: entry.athena.exportPrefix }),
          }
        : {};
    return { ...entry, athena: { ...settings, ...kept } };
  });
}
