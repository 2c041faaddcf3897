import { mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SetAsideNotice } from '../../shared/ipc/data-files';
import { readDataFile } from '../core/data-files';
import { isMissingFile } from '../files/atomic-file';
import { dataFolder } from '../files/data-folder';
import type { JobKindSpec } from './job-store';

/**
 * How a job store of an earlier release kept its files: one folder per kind
 * (dataFolder.legacyJobs), the checkpoint as the bare payload in `<id><checkpoint>`, and side
 * files (a spool, a summary, a report) that keep their names and format in the new folder.
 */
export interface LegacyLayout {
  checkpoint: '.json' | '.checkpoint.json' | '.plan.json';
  sides: string[];
}

/**
 * Moves the old layout's files of one kind into <data>/jobs/<kind>/, once per store: each
 * checkpoint becomes a record (`write`), side files are renamed as they are. A checkpoint that
 * does not read is set aside where it was, with its sentence (returned by id, so the list and a
 * resume of that job say it). Nothing is converted twice: an old file goes once it is moved.
 */
export async function convertLegacyJobs<T>(
  dataDir: string,
  spec: JobKindSpec<T>,
  write: (value: T) => Promise<void>,
): Promise<Map<string, SetAsideNotice>> {
  const setAside = new Map<string, SetAsideNotice>();
  const legacyFolder = dataFolder.legacyJobs[spec.kind];
  // A kind that came after the job store (imports, purges) has no old layout to convert.
  if (!legacyFolder || !spec.legacy) return setAside;
  const from = legacyFolder(dataDir);
  const to = dataFolder.jobs(dataDir, spec.kind);
  let names: string[];
  try {
    names = await readdir(from);
  } catch (error) {
    if (isMissingFile(error)) return setAside;
    throw error;
  }
  const { checkpoint, sides } = spec.legacy;
  for (const name of names) {
    const suffix = [checkpoint, ...sides].find((s) => name.endsWith(s));
    const id = suffix === undefined ? '' : name.slice(0, -suffix.length);
    // Not a file the old store wrote (a set-aside file, a temp file, the user's own): left alone.
    if (!spec.ids.test(id)) continue;
    const old = path.join(from, name);
    if (suffix !== checkpoint) {
      await mkdir(to, { recursive: true, mode: 0o700 });
      const moved = path.join(to, name);
      if (!(await exists(moved))) await rename(old, moved);
      continue;
    }
    const read = await readDataFile(old, {
      what: spec.what(id),
      parse: (json) => {
        spec.payload.parse(json);
        return json as T;
      },
      held: spec.held,
      instead: spec.instead,
    });
    if (read.state === 'setAside') setAside.set(id, read.notice);
    if (read.state === 'read') {
      await write(read.value);
      await rm(old, { force: true });
    }
  }
  // The old folder goes when nothing is left in it; one that still holds a set-aside file stays.
  await rmdir(from).catch(() => undefined);
  return setAside;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
