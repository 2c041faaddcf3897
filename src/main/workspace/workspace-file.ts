import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { workspaceSnapshotSchema, type WorkspaceSnapshot } from '../../shared/ipc/workspace';
import { isMissingFile, writeFileAtomic } from '../aws/atomic-file';

/**
 * <dataDir>/workspace.json: in main's data folder rather than the page's localStorage, so the
 * desktop app and browser mode restore the same workspace, a restart finds it, and it sits with
 * the user's other DynoTable files (and goes when they are deleted) instead of in a browser
 * profile keyed by a random port.
 */
function file(dataDir: string): string {
  return path.join(dataDir, 'workspace.json');
}

export async function loadWorkspace(dataDir: string): Promise<WorkspaceSnapshot | null> {
  let text: string;
  try {
    text = await readFile(file(dataDir), 'utf8');
  } catch (error) {
    if (isMissingFile(error)) return null;
    throw error;
  }
  try {
    const parsed = workspaceSnapshotSchema.safeParse(JSON.parse(text));
    // A file from another version or cut short starts an empty workspace; it is replaced on the next save.
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Saves run one after another, so an older snapshot never lands after a newer one. */
let queue: Promise<unknown> = Promise.resolve();

export function saveWorkspace(dataDir: string, snapshot: WorkspaceSnapshot): Promise<void> {
  const write = queue.then(() => writeFileAtomic(file(dataDir), JSON.stringify(snapshot)));
  queue = write.catch(() => undefined);
  return write;
}
