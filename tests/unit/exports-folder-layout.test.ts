import { describe, expect, it } from 'vitest';
import { planFolderUpload, type PickedFile } from '../../src/renderer/features/exports/folder-layout';

// Which files of a picked folder the page sends, under which layout names, and the sentence for
// a folder that is not a whole export. Manifest keys are full S3 keys, as DynamoDB writes them.
const id = '01700000000000-0a1b2c3d';
const manifest = (keys: string[]) =>
  keys
    .map((key) => JSON.stringify({ itemCount: 1, md5Checksum: '', etag: '', dataFileS3Key: key }))
    .join('\n');
const file = (text: string) => new File([text], 'f');

function folder(top: string, files: Record<string, string>): PickedFile[] {
  return Object.entries(files).map(([path, text]) => ({ path: `${top}/${path}`, file: file(text) }));
}

const keys = [`nightly/AWSDynamoDB/${id}/data/a.json.gz`, `nightly/AWSDynamoDB/${id}/data/b.json.gz`];

describe('planning an export folder upload', () => {
  it('sends an export found below the picked folder as AWSDynamoDB/<its folder>/, and nothing else', async () => {
    const plan = await planFolderUpload(
      folder('backups', {
        [`nightly/AWSDynamoDB/${id}/manifest-summary.json`]: '{}',
        [`nightly/AWSDynamoDB/${id}/manifest-files.json`]: manifest(keys),
        [`nightly/AWSDynamoDB/${id}/data/a.json.gz`]: 'aa',
        [`nightly/AWSDynamoDB/${id}/data/b.json.gz`]: 'bbb',
        [`nightly/AWSDynamoDB/${id}/_started`]: '',
        'notes.txt': 'not part of it',
      }),
    );
    expect(plan).toMatchObject({ ok: true, folder: 'backups', bytes: 2 + manifest(keys).length + 2 + 3 });
    expect(plan.ok && plan.uploads.map((u) => u.name)).toEqual([
      `AWSDynamoDB/${id}/manifest-summary.json`,
      `AWSDynamoDB/${id}/manifest-files.json`,
      `AWSDynamoDB/${id}/data/a.json.gz`,
      `AWSDynamoDB/${id}/data/b.json.gz`,
    ]);
  });

  it('sends the export’s own folder, picked at its top, under the layout’s plain names', async () => {
    const plan = await planFolderUpload(
      folder(id, {
        'manifest-summary.json': '{}',
        'manifest-files.json': manifest(keys),
        'data/a.json.gz': 'a',
        'data/b.json.gz': 'b',
      }),
    );
    expect(plan.ok && plan.uploads.map((u) => u.name)).toEqual([
      'manifest-summary.json',
      'manifest-files.json',
      'data/a.json.gz',
      'data/b.json.gz',
    ]);
  });

  it('names what a folder lacks: the summary, the files manifest, or the data files it names', async () => {
    expect(await planFolderUpload(folder('data', { 'a.json.gz': 'a' }))).toMatchObject({
      ok: false,
      message: expect.stringMatching(
        /^data holds no DynamoDB export: there is no manifest-summary\.json/,
      ) as string,
    });
    expect(await planFolderUpload(folder(id, { 'manifest-summary.json': '{}' }))).toMatchObject({
      ok: false,
      message: expect.stringContaining('it has no manifest-files.json') as string,
    });
    const lacking = await planFolderUpload(
      folder(id, {
        'manifest-summary.json': '{}',
        'manifest-files.json': manifest(keys),
        'data/a.json.gz': 'a',
      }),
    );
    expect(lacking).toMatchObject({
      ok: false,
      message: expect.stringContaining(
        'lacks 1 of the 2 data files its manifest-files.json names (data/b.json.gz)',
      ) as string,
    });
    expect(
      await planFolderUpload(
        folder(id, { 'manifest-summary.json': '{}', 'manifest-files.json': 'not json' }),
      ),
    ).toMatchObject({
      ok: false,
      message: expect.stringContaining('is not a DynamoDB export manifest') as string,
    });
  });
});
