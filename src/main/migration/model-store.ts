import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { OrmModel } from '../../shared/ipc/migration';
import { writeFileAtomic } from '../files/atomic-file';
import { readDataFileOrFail, stringsNamed } from '../core/data-files';
import { tableFile } from './acknowledgements';
import { dateSettingsOf, readOrmModel } from './orm-expectations';

const storedModel = z.object({ fileName: z.string(), at: z.string(), text: z.string() });
type StoredModel = z.infer<typeof storedModel>;

/**
 * The dynotable-orm model file a table's pre-flight uses, one per connection and table under
 * <dataDir>/migration/models. Its text is kept and read again with the parser `scan-migration
 * --model` uses, so what the view shows and what the CLI would read from the same file agree.
 */
export class OrmModelStore {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'migration', 'models');
  }

  /** Parses first: a file that is not a model is refused with its sentence, and nothing is kept. */
  async use(connectionId: string, table: string, fileName: string, text: string): Promise<OrmModel> {
    const model = describe({ fileName, at: new Date().toISOString(), text });
    await writeFileAtomic(
      tableFile(this.dir, connectionId, table, 'model.json'),
      JSON.stringify({ fileName, at: model.at, text }),
    );
    return model;
  }

  async get(connectionId: string, table: string): Promise<OrmModel | null> {
    const stored = await readDataFileOrFail(tableFile(this.dir, connectionId, table, 'model.json'), {
      what: `The model file kept for ${table}`,
      parse: (json) => storedModel.parse(json),
      held: (text) => {
        const [fileName] = stringsNamed(text, 'fileName');
        return fileName === undefined ? undefined : `a copy of ${fileName}`;
      },
      instead: 'The pre-flight reads the table without it; choose the model file again.',
    });
    return stored ? describe(stored) : null;
  }

  async remove(connectionId: string, table: string): Promise<void> {
    await rm(tableFile(this.dir, connectionId, table, 'model.json'), { force: true });
  }
}

function describe({ fileName, at, text }: StoredModel): OrmModel {
  const entities = readOrmModel(text, fileName);
  return { fileName, at, entities, dateStorage: dateSettingsOf(entities) };
}
