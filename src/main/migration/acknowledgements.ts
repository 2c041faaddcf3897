import { userInfo } from 'node:os';
import { join } from 'node:path';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { Acknowledgement, DateStorage, ExpectationsFile } from '../../shared/ipc/migration';
import { writeFileAtomic } from '../files/atomic-file';
import { readDataFileOrFail, stringsNamed } from '../core/data-files';
import { parseExpectationsFile } from './expectations';
import { echoValue } from '../../shared/dynamo/echo-value';
import { dataFolder } from '../files/data-folder';

export interface AcknowledgementList {
  acknowledgements: Acknowledgement[];
  file: string;
  content: string;
}

/** DynamoDB's own table-name rule: nothing here can climb out of the folder. */
const TABLE = /^[A-Za-z0-9_.-]{3,255}$/;

function osUser(): string {
  try {
    return userInfo().username || 'unknown user';
  } catch {
    return 'unknown user';
  }
}

/** <dir>/<connection>/<table>.<suffix>: one file per connection and table, never outside dir. */
export function tableFile(dir: string, connectionId: string, table: string, suffix: string): string {
  if (!TABLE.test(table))
    throw new AppFailure(ErrorCodes.invalidInput, `The table name ${echoValue(table, 64)} is not valid.`);
  // Dots too: a connection id of ".." must stay one folder down.
  const folder = encodeURIComponent(connectionId).replace(/\./g, '%2E');
  return join(dir, folder, `${table}.${suffix}`);
}

/**
 * The app's acknowledgements, one expectations file per connection and table under
 * <dataDir>/migration/acknowledgements. Deliberately the very format `scan-migration
 * --expectations` reads (and read by the same parser), so what the Pre-flight view accepted and
 * what a CI gate accepts cannot drift apart: the file can be passed to the CLI or committed next
 * to the models as it is.
 */
export class AcknowledgementStore {
  private readonly dir: string;
  /** Read-modify-write of one file at a time, so two quick clicks cannot lose one of them. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    dataDir: string,
    private readonly who: () => string = osUser,
  ) {
    this.dir = dataFolder.migrationSettings(dataDir, 'acknowledgements');
  }

  file(connectionId: string, table: string): string {
    return tableFile(this.dir, connectionId, table, 'expectations.json');
  }

  async list(connectionId: string, table: string): Promise<AcknowledgementList> {
    const file = this.file(connectionId, table);
    // Unreadable: set aside, and this call fails with the sentence; the next starts with none.
    const acknowledgements = await readDataFileOrFail(file, {
      what: `The acknowledged settings of ${table}`,
      // The CLI's own parser, so the app and `--expectations` accept the same files.
      parse: (json) => parseExpectationsFile(JSON.stringify(json), file, table),
      held: (text) => {
        const paths = stringsNamed(text, 'path');
        return paths.length > 0 ? `acknowledgements of ${paths.slice(0, 5).join(', ')}` : undefined;
      },
      instead: 'The pre-flight counts no setting as acknowledged until you acknowledge them again.',
    });
    return this.describe(file, table, acknowledgements ?? []);
  }

  acknowledge(
    connectionId: string,
    table: string,
    setting: { path: string; storage: DateStorage; reason: string },
  ): Promise<AcknowledgementList> {
    const entry: Acknowledgement = {
      path: setting.path,
      storage: setting.storage,
      by: this.who(),
      at: new Date().toISOString(),
      reason: setting.reason,
    };
    return this.change(connectionId, table, (list) => [...list.filter((a) => a.path !== entry.path), entry]);
  }

  withdraw(connectionId: string, table: string, path: string): Promise<AcknowledgementList> {
    return this.change(connectionId, table, (list) => {
      if (!list.some((a) => a.path === path))
        throw new AppFailure(ErrorCodes.notFound, `No setting at ${path} is acknowledged for ${table}.`);
      return list.filter((a) => a.path !== path);
    });
  }

  private change(
    connectionId: string,
    table: string,
    edit: (list: Acknowledgement[]) => Acknowledgement[],
  ): Promise<AcknowledgementList> {
    const next = this.queue.then(async () => {
      const { acknowledgements, file } = await this.list(connectionId, table);
      const changed = edit(acknowledgements);
      const described = this.describe(file, table, changed);
      await writeFileAtomic(file, described.content);
      return described;
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private describe(file: string, table: string, acknowledgements: Acknowledgement[]): AcknowledgementList {
    const content: ExpectationsFile = { table, dateStorage: acknowledgements };
    return { acknowledgements, file, content: `${JSON.stringify(content, null, 2)}\n` };
  }
}
