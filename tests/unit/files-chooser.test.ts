import { describe, expect, it } from 'vitest';
import { FileChooser, type FileDialog } from '../../src/main/files/file-chooser';
import { AppFailure } from '../../src/shared/errors';

/** Stands in for Electron's dialog (no Electron binary here): records what main asked, answers as a user would. */
function dialog(answer: string | undefined): FileDialog & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    asked,
    open: (options) => (asked.push({ kind: 'open', ...options }), Promise.resolve(answer)),
    save: (options) => (asked.push({ kind: 'save', ...options }), Promise.resolve(answer)),
    openFolder: (options) => (asked.push({ kind: 'folder', ...options }), Promise.resolve(answer)),
  };
}

const code = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    return error instanceof AppFailure ? error.code : 'not an AppFailure';
  }
  return 'no error';
};

describe('choosing files in the desktop window', () => {
  it('hands the page a handle and a name, never the path, and main reads the path back', async () => {
    const chooser = new FileChooser(dialog('/home/ada/Downloads/orders.jsonl'));
    const choice = await chooser.choose({ purpose: 'import', format: 'jsonl' });
    expect(choice).toEqual({ fileId: expect.any(String) as string, name: 'orders.jsonl' });
    expect(JSON.stringify(choice)).not.toContain('/home/ada');
    if (!('fileId' in choice)) throw new Error('expected a choice');
    expect(chooser.pathOf(choice.fileId, 'import')).toBe('/home/ada/Downloads/orders.jsonl');
  });

  it('offers the format as a filter and only a bare name to save as', async () => {
    const d = dialog('/tmp/x.csv');
    await new FileChooser(d).choose({
      purpose: 'export',
      format: 'csv',
      suggestedName: '../../etc/Orders.csv',
    });
    expect(d.asked).toEqual([
      {
        kind: 'save',
        title: 'Export as CSV',
        defaultName: 'Orders.csv',
        filters: [{ name: 'CSV', extensions: ['csv'] }],
      },
    ]);
  });

  it('opens a dynotable-orm model file with no format, and its handle is good only for a model', async () => {
    const d = dialog('/home/ada/models/Orders.model.ts');
    const chooser = new FileChooser(d);
    const choice = await chooser.choose({ purpose: 'model' });
    expect(choice).toEqual({ fileId: expect.any(String) as string, name: 'Orders.model.ts' });
    expect(d.asked).toEqual([
      expect.objectContaining({
        kind: 'open',
        filters: [
          { name: 'dynotable-orm model', extensions: ['ts', 'js', 'mts', 'mjs'] },
          { name: 'All files', extensions: ['*'] },
        ],
      }),
    ]);
    if (!('fileId' in choice)) throw new Error('expected a choice');
    expect(chooser.pathOf(choice.fileId, 'model')).toBe('/home/ada/models/Orders.model.ts');
    expect(code(() => chooser.pathOf(choice.fileId, 'import'))).toBe('FileNotFound');
  });

  it('says cancelled when the dialog is dismissed', async () => {
    expect(await new FileChooser(dialog(undefined)).choose({ purpose: 'export', format: 'jsonl' })).toEqual({
      cancelled: true,
    });
  });

  it('refuses a handle for another purpose, an unknown one, and one over an hour old', async () => {
    let now = 0;
    const chooser = new FileChooser(dialog('/tmp/a.json'), () => now);
    const choice = await chooser.choose({ purpose: 'import', format: 'dynamodb-json' });
    if (!('fileId' in choice)) throw new Error('expected a choice');
    expect(code(() => chooser.pathOf(choice.fileId, 'export'))).toBe('FileNotFound');
    expect(code(() => chooser.pathOf('made-up', 'import'))).toBe('FileNotFound');
    now = 59 * 60 * 1000;
    expect(chooser.pathOf(choice.fileId, 'import')).toBe('/tmp/a.json');
    now = 61 * 60 * 1000;
    expect(code(() => chooser.pathOf(choice.fileId, 'import'))).toBe('FileNotFound');
  });

  it('has no dialog in browser mode and says to upload or download', async () => {
    await expect(
      new FileChooser(undefined).choose({ purpose: 'import', format: 'csv' }),
    ).rejects.toMatchObject({
      code: 'NotSupported',
      message: expect.stringMatching(/upload the file.*Download link/) as string,
    });
  });

  it('chooses an export folder with the folder dialog, good only for opening an export', async () => {
    const d = dialog('/home/ada/exports/orders-2026-11-30');
    const chooser = new FileChooser(d);
    const choice = await chooser.choose({ purpose: 'openExport' });
    expect(d.asked).toEqual([{ kind: 'folder', title: 'Open a DynamoDB export folder' }]);
    expect(choice).toEqual({ fileId: expect.any(String) as string, name: 'orders-2026-11-30' });
    if (!('fileId' in choice)) throw new Error('expected a choice');
    expect(chooser.pathOf(choice.fileId, 'openExport')).toBe('/home/ada/exports/orders-2026-11-30');
    expect(code(() => chooser.pathOf(choice.fileId, 'import'))).toBe('FileNotFound');
  });

  it('asks a file to import or export for its format', async () => {
    await expect(new FileChooser(dialog('/tmp/x')).choose({ purpose: 'import' })).rejects.toMatchObject({
      code: 'InvalidInput',
    });
  });

  it('says in browser mode that an export folder is picked in the page and uploaded', async () => {
    await expect(new FileChooser(undefined).choose({ purpose: 'openExport' })).rejects.toMatchObject({
      code: 'NotSupported',
      message: expect.stringContaining('/api/upload/export-folder') as string,
    });
  });
});
