/** A file of a folder the user picked or dropped, by its path inside that folder's parent. */
export interface PickedFile {
  /** "orders-export/AWSDynamoDB/0170…/data/x.json.gz": the picked folder's name comes first. */
  path: string;
  file: File;
}

export interface UploadEntry {
  /** Its place in the export layout, as the upload route takes it. */
  name: string;
  file: File;
}

export type FolderPlan =
  | { ok: true; folder: string; uploads: UploadEntry[]; bytes: number }
  | { ok: false; folder: string; message: string };

const SUMMARY = 'manifest-summary.json';
const FILES = 'manifest-files.json';
const AWS = /(?:^|\/)AWSDynamoDB\/[^/]+\/(.+)$/;

function listed(names: string[], max = 3): string {
  const shown = names.slice(0, max).join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}

/** The data files a manifest-files.json names, relative to its export's folder (data/…). */
function dataFilesOf(manifest: string): string[] {
  const keys: string[] = [];
  for (const line of manifest.split('\n')) {
    if (line.trim() === '') continue;
    const key = (JSON.parse(line) as { dataFileS3Key?: unknown }).dataFileS3Key;
    if (typeof key !== 'string') continue;
    keys.push(AWS.exec(key)?.[1] ?? key);
  }
  return keys;
}

/**
 * Which files of a picked folder make up its export(s), under which layout names, or a sentence
 * naming what is missing. An export is a folder holding manifest-summary.json, found at the
 * picked folder's top or anywhere below it (AWSDynamoDB/<export id>/ as DynamoDB writes it);
 * one below the top is sent as AWSDynamoDB/<its folder's name>/. Only the manifests and the data
 * files manifest-files.json names are sent, so a folder with other things in it costs nothing more.
 */
export async function planFolderUpload(picked: PickedFile[]): Promise<FolderPlan> {
  const folder = picked[0]?.path.split('/')[0] ?? 'The folder';
  const byPath = new Map<string, File>();
  for (const { path, file } of picked) byPath.set(path.split('/').slice(1).join('/'), file);
  const roots = [...byPath.keys()]
    .filter((p) => p === SUMMARY || p.endsWith(`/${SUMMARY}`))
    .map((p) => p.slice(0, -SUMMARY.length).replace(/\/$/, ''));
  if (roots.length === 0)
    return {
      ok: false,
      folder,
      message: `${folder} holds no DynamoDB export: there is no ${SUMMARY} in it or below it. Pick the export's folder, the one holding ${SUMMARY}, ${FILES} and data/.`,
    };
  const uploads: UploadEntry[] = [];
  for (const root of roots) {
    const at = (name: string) => (root === '' ? name : `${root}/${name}`);
    const shown = root === '' ? folder : `${folder}/${root}`;
    const manifest = byPath.get(at(FILES));
    if (!manifest)
      return {
        ok: false,
        folder,
        message: `${shown} is not a whole export: it has no ${FILES}. Copy the whole export folder and pick it again.`,
      };
    let data: string[];
    try {
      data = dataFilesOf(await manifest.text());
    } catch {
      return {
        ok: false,
        folder,
        message: `${shown}/${FILES} is not a DynamoDB export manifest (a JSON line per data file).`,
      };
    }
    const missing = data.filter((name) => !byPath.has(at(name)));
    if (missing.length > 0)
      return {
        ok: false,
        folder,
        message: `${shown} is not a whole export: it lacks ${missing.length} of the ${data.length} data files its ${FILES} names (${listed(missing)}). Copy the whole export folder and pick it again.`,
      };
    const named = (name: string) =>
      root === '' ? name : `AWSDynamoDB/${root.split('/').at(-1) ?? ''}/${name}`;
    for (const name of [SUMMARY, FILES, ...data])
      uploads.push({ name: named(name), file: byPath.get(at(name))! });
  }
  return { ok: true, folder, uploads, bytes: uploads.reduce((sum, u) => sum + u.file.size, 0) };
}

/** The files of a folder input (webkitdirectory): each carries its path below the picked folder's parent. */
export function pickedFromInput(files: FileList | null): PickedFile[] {
  return [...(files ?? [])].map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}
