import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { type AgentSettings, agentSettingsSchema, defaultAgentSettings } from '../../shared/ipc/agent';

const fileSchema = z.record(z.string(), agentSettingsSchema);

/** Per-connection agent settings (model, region, mode, budgets) in one JSON file under the data dir. */
export class AgentSettingsStore {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'agent-settings.json');
  }

  private async readAll(): Promise<Record<string, AgentSettings>> {
    try {
      return fileSchema.parse(JSON.parse(await readFile(this.file, 'utf8')));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      // A damaged file falls back to defaults rather than blocking the chat; saving rewrites it.
      return {};
    }
  }

  async get(connectionId: string): Promise<AgentSettings> {
    return (await this.readAll())[connectionId] ?? defaultAgentSettings;
  }

  async save(connectionId: string, settings: AgentSettings): Promise<AgentSettings> {
    const all = await this.readAll();
    all[connectionId] = settings;
    await mkdir(join(this.file, '..'), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(all, null, 2), { mode: 0o600 });
    await rename(tmp, this.file);
    return settings;
  }
}
