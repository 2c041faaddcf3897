import { z } from 'zod';
import { type AgentSettings, agentSettingsSchema, defaultAgentSettings } from '../../shared/ipc/agent';
import { writeFileAtomic } from '../files/atomic-file';
import { readDataFileOrFail } from '../core/data-files';
import { dataFolder } from '../files/data-folder';

const fileSchema = z.record(z.string(), agentSettingsSchema);

/** Per-connection agent settings (model, region, mode, budgets) in one JSON file under the data dir. */
export class AgentSettingsStore {
  private readonly file: string;

  constructor(dataDir: string) {
    this.file = dataFolder.agentSettings(dataDir);
  }

  /**
   * An unreadable file is set aside and this call fails with the sentence that says so; the
   * next one finds no file and starts from the defaults, so a save never writes over it.
   */
  private async readAll(): Promise<Record<string, AgentSettings>> {
    const all = await readDataFileOrFail(this.file, {
      what: 'Your assistant settings',
      parse: (json) => fileSchema.parse(json),
      held: (text) => {
        const models = text.match(/"modelId"\s*:/g)?.length ?? 0;
        return models > 0 ? `settings of ${models} connection${models === 1 ? '' : 's'}` : undefined;
      },
      instead: 'The assistant uses its default settings until you save new ones.',
    });
    return all ?? {};
  }

  async get(connectionId: string): Promise<AgentSettings> {
    return (await this.readAll())[connectionId] ?? defaultAgentSettings;
  }

  async save(connectionId: string, settings: AgentSettings): Promise<AgentSettings> {
    const all = await this.readAll();
    all[connectionId] = settings;
    await writeFileAtomic(this.file, JSON.stringify(all, null, 2));
    return settings;
  }
}
