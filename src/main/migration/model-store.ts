import { rm } from 'node:fs/promises';
import { dataFolder, type MigrationSettingsFolder } from '../files/data-folder';
import { z } from 'zod';
import type { OrmModel } from '../../shared/ipc/migration';
import type { KeptDynamooseFile } from '../../shared/ipc/migration-dynamoose';
import { writeFileAtomic } from '../files/atomic-file';
import { readDataFileOrFail, stringsNamed } from '../core/data-files';
import { tableFile } from './acknowledgements';
import { dynamooseReview } from './dynamoose-review';
import { readDynamooseSchema } from './dynamoose-schema';
import { dateSettingsOf, readOrmModel } from './orm-expectations';

const storedFile = z.object({ fileName: z.string(), at: z.string(), text: z.string() });
type StoredFile = z.infer<typeof storedFile>;

/**
 * A model file a table's pre-flight uses, one per connection and table under
 * <dataDir>/migration/<folder>. Its text is kept and read again with the parser the CLI uses for
 * the same file, so what the view shows and what the CLI would read from it agree.
 */
export class KeptModelFile<T> {
  private readonly dir: string;

  constructor(
    dataDir: string,
    folder: MigrationSettingsFolder,
    private readonly what: string,
    private readonly describe: (stored: StoredFile) => T,
  ) {
    this.dir = dataFolder.migrationSettings(dataDir, folder);
  }

  /** Parses first: a file that is not a model is refused with its sentence, and nothing is kept. */
  async use(connectionId: string, table: string, fileName: string, text: string): Promise<T> {
    const at = new Date().toISOString();
    const described = this.describe({ fileName, at, text });
    await writeFileAtomic(this.file(connectionId, table), JSON.stringify({ fileName, at, text }));
    return described;
  }

  async get(connectionId: string, table: string): Promise<T | null> {
    const stored = await readDataFileOrFail(this.file(connectionId, table), {
      what: `The ${this.what} kept for ${table}`,
      parse: (json) => storedFile.parse(json),
      held: (text) => {
        const [fileName] = stringsNamed(text, 'fileName');
        return fileName === undefined ? undefined : `a copy of ${fileName}`;
      },
      instead: `The pre-flight reads the table without it; choose the ${this.what} again.`,
    });
    return stored ? this.describe(stored) : null;
  }

  async remove(connectionId: string, table: string): Promise<void> {
    await rm(this.file(connectionId, table), { force: true });
  }

  private file(connectionId: string, table: string): string {
    return tableFile(this.dir, connectionId, table, 'model.json');
  }
}

/** The dynotable-orm model file whose date storage the verdicts count (`scan-migration --model`). */
export class OrmModelStore extends KeptModelFile<OrmModel> {
  constructor(dataDir: string) {
    super(dataDir, 'models', 'model file', ({ fileName, at, text }) => {
      const entities = readOrmModel(text, fileName);
      return { fileName, at, entities, dateStorage: dateSettingsOf(entities) };
    });
  }
}

/**
 * The dynamoose schema file the table's scans check the items against
 * (`scan-migration --dynamoose-model`); described without data until a scan reads the table.
 */
export class DynamooseFileStore extends KeptModelFile<KeptDynamooseFile> {
  constructor(dataDir: string) {
    super(dataDir, 'dynamoose', 'dynamoose schema file', ({ fileName, at, text }) => ({
      fileName,
      at,
      review: dynamooseReview(fileName, readDynamooseSchema(text, fileName), undefined),
    }));
  }
}
