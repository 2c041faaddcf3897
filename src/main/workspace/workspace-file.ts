import type { SetAsideNotice } from '../../shared/ipc/data-files';
import { workspaceSnapshotSchema, type WorkspaceSnapshot } from '../../shared/ipc/workspace';
import { writeFileAtomic } from '../files/atomic-file';
import { readDataFile, stringsNamed } from '../core/data-files';
import { dataFolder } from '../files/data-folder';

/**
 * <dataDir>/workspace.json: in main's data folder rather than the page's localStorage, so the
 * desktop app and browser mode restore the same workspace, a restart finds it, and it sits with
 * the user's other DynoTable files (and goes when they are deleted) instead of in a browser
 * profile keyed by a random port.
 */
function file(dataDir: string): string {
  return dataFolder.workspace(dataDir);
}

export async function loadWorkspace(
  dataDir: string,
): Promise<{ snapshot: WorkspaceSnapshot | null; setAside?: SetAsideNotice }> {
  const read = await readDataFile(file(dataDir), {
    what: 'Your saved workspace',
    parse: (json) => workspaceSnapshotSchema.parse(json),
    held: (text) => {
      const tables = stringsNamed(text, 'name');
      const connections = new Set(stringsNamed(text, 'connectionId')).size;
      if (connections === 0) return undefined;
      return `tabs of ${connections} connection${connections === 1 ? '' : 's'}${tables.length ? ` (tables ${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', …' : ''})` : ''}`;
    },
    instead: 'The workspace starts empty.',
  });
  if (read.state === 'setAside') return { snapshot: null, setAside: read.notice };
  return { snapshot: read.state === 'read' ? read.value : null };
}

/** Saves run one after another, so an older snapshot never lands after a newer one. */
let queue: Promise<unknown> = Promise.resolve();

export function saveWorkspace(dataDir: string, snapshot: WorkspaceSnapshot): Promise<void> {
  const write = queue.then(() => writeFileAtomic(file(dataDir), JSON.stringify(snapshot)));
  queue = write.catch(() => undefined);
  return write;
}
