import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';

/**
 * Writes a file so that readers see either the old or the new contents, never half of one:
 * write a temporary file in the same folder (rename is only atomic within a filesystem),
 * fsync it, then rename it over the target. `mode` applies from creation, so a secret is
 * never readable by others even for a moment. The writer's pid is in the temp file's name, so a
 * restart can tell what a killed process left (removeLeftoverTempFiles) from what another writes now.
 */
export async function writeFileAtomic(path: string, data: string | Buffer, mode = 0o600): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tmp = join(dir, `.${basename(path)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(tmp, 'wx', mode);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    await rename(tmp, path);
  } catch (error) {
    await rm(tmp, { force: true });
    throw error;
  }
}

/** `.<name>.<pid>-<hex>.tmp` as written here; `.<name>.<hex>.tmp` as written before the pid was added. */
export const TEMP_FILE = /^\..+\.(?:(\d+)-)?[0-9a-f]{12}\.tmp$/;

/** True for ENOENT: a file that is simply not there yet. */
export function isMissingFile(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}
