import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { AppFailure, ErrorCodes } from '../../shared/errors';
import type { FileChoice, FileChoiceInput, RowsFormat } from '../../shared/ipc/transfer';

export interface FileFilter {
  name: string;
  extensions: string[];
}

/** The system's dialogs, as Electron's `dialog` offers them; undefined when the user cancels. */
export interface FileDialog {
  open(options: { title: string; filters: FileFilter[] }): Promise<string | undefined>;
  save(options: { title: string; defaultName: string; filters: FileFilter[] }): Promise<string | undefined>;
  openFolder(options: { title: string }): Promise<string | undefined>;
}

type Purpose = FileChoiceInput['purpose'];

/** A choice is for this session's dry run and import, not a key to the disk kept for days. */
const KEEP_MS = 60 * 60 * 1000;
const MAX_GRANTS = 200;

const FILTERS: Record<RowsFormat, FileFilter> = {
  'dynamodb-json': { name: 'DynamoDB JSON', extensions: ['json'] },
  jsonl: { name: 'JSON Lines', extensions: ['jsonl', 'ndjson', 'json'] },
  csv: { name: 'CSV', extensions: ['csv'] },
  json: { name: 'JSON', extensions: ['json'] },
};

/** What the Schema view saves as "dynotable-orm model". */
const MODEL_FILTER: FileFilter = { name: 'dynotable-orm model', extensions: ['ts', 'js', 'mts', 'mjs'] };

/** Where a team's dynamoose models live: JavaScript or TypeScript modules. */
const DYNAMOOSE_FILTER: FileFilter = {
  name: 'dynamoose schema',
  extensions: ['js', 'cjs', 'mjs', 'ts', 'mts', 'cts'],
};

/**
 * The one file-choosing path of the desktop window. Main shows the dialog and keeps the path it
 * returns under a random id; the renderer sees only the id and the file's name, so no path is
 * typed, sent or trusted from the page. An id is good for the purpose it was chosen for.
 */
export class FileChooser {
  private readonly grants = new Map<string, { file: string; purpose: Purpose; at: number }>();

  constructor(
    private readonly dialog: FileDialog | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  async choose(input: FileChoiceInput): Promise<FileChoice> {
    if (!this.dialog)
      throw new AppFailure(
        ErrorCodes.notSupported,
        input.purpose === 'openExport'
          ? 'Browser mode has no folder dialog on the server: pick the export folder in the page (Open export folder… uploads it with POST /api/upload/export-folder) and open it with exports:openFolder {uploadId}.'
          : input.purpose === 'model' || input.purpose === 'dynamoose'
            ? 'Browser mode has no file dialog: pick the model file in the page, which sends its text.'
            : 'Browser mode has no file dialog: upload the file to import, and use the Download link to export.',
      );
    const file = await ask(this.dialog, input);
    if (file === undefined || file === '') return { cancelled: true };
    this.prune();
    const fileId = randomBytes(18).toString('base64url');
    this.grants.set(fileId, { file, purpose: input.purpose, at: this.now() });
    return { fileId, name: path.basename(file) };
  }

  /** The path behind an id, or a sentence asking to choose again. */
  pathOf(fileId: string, purpose: Purpose): string {
    const grant = this.grants.get(fileId);
    if (grant && grant.purpose === purpose && this.now() - grant.at < KEEP_MS) return grant.file;
    throw new AppFailure(
      ErrorCodes.fileNotFound,
      `That file choice is no longer valid (a choice lasts an hour, for the ${purpose} it was made for). Choose the file again.`,
      false,
      { fileId },
    );
  }

  private prune(): void {
    for (const [id, grant] of this.grants)
      if (this.now() - grant.at >= KEEP_MS || this.grants.size >= MAX_GRANTS) this.grants.delete(id);
  }
}

/** Shows the dialog the purpose needs; the chosen path, or undefined when dismissed. */
function ask(dialog: FileDialog, input: FileChoiceInput): Promise<string | undefined> {
  if (input.purpose === 'openExport') return dialog.openFolder({ title: 'Open a DynamoDB export folder' });
  if (input.purpose === 'model')
    return dialog.open({
      title: 'Use a dynotable-orm model',
      filters: [MODEL_FILTER, { name: 'All files', extensions: ['*'] }],
    });
  if (input.purpose === 'dynamoose')
    return dialog.open({
      title: 'Use a dynamoose schema file (read as text, never run)',
      filters: [DYNAMOOSE_FILTER, { name: 'All files', extensions: ['*'] }],
    });
  if (!input.format)
    throw new AppFailure(ErrorCodes.invalidInput, `Choosing a file to ${input.purpose} needs its format.`);
  const filter = FILTERS[input.format];
  return input.purpose === 'import'
    ? dialog.open({
        title: `Import ${filter.name}`,
        filters: [filter, { name: 'All files', extensions: ['*'] }],
      })
    : dialog.save({
        title: `Export as ${filter.name}`,
        // Only a name: the dialog opens in the system's last folder, and nothing from the page is a path.
        defaultName: path.basename(input.suggestedName ?? `export.${filter.extensions[0] ?? 'txt'}`),
        filters: [filter],
      });
}
