import type { PickedFile } from './folder-layout';

function entriesOf(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, into: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    into.push({ path: entry.fullPath.replace(/^\/+/, ''), file: await fileOf(entry as FileSystemFileEntry) });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (100 in Chromium) until it answers none.
  for (let batch = await entriesOf(reader); batch.length > 0; batch = await entriesOf(reader))
    for (const child of batch) await walk(child, into);
}

/**
 * The files of a folder dropped on the page, with the same paths a folder input gives
 * (the folder's name first); undefined when what was dropped is not one folder.
 */
export async function pickedFromDrop(transfer: DataTransfer): Promise<PickedFile[] | undefined> {
  const entries = [...transfer.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry())
    .filter((entry): entry is FileSystemEntry => entry !== null);
  if (entries.length !== 1 || !entries[0]!.isDirectory) return undefined;
  const picked: PickedFile[] = [];
  await walk(entries[0]!, picked);
  return picked;
}
