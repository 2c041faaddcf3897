import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { workspaceHandlers } from '../../../src/main/ipc/handlers/workspace';
import type { CoreContext } from '../../../src/main/core/context';
import type { WorkspaceSnapshot } from '../../../src/shared/ipc/workspace';

const folders: string[] = [];
afterEach(() => folders.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function dataFolder(): { dataDir: string; ctx: CoreContext } {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'dynotable-workspace-'));
  folders.push(dataDir);
  return { dataDir, ctx: { dataDir } as CoreContext };
}

const saved: WorkspaceSnapshot = {
  version: 1,
  activeConnectionId: 'prod-eu',
  connections: [
    { connectionId: 'prod-eu', tables: [{ name: 'Orders' }, { name: 'Customers' }], active: 'home' },
  ],
};

const keptFiles = async (dataDir: string) =>
  (await readdir(dataDir)).filter((n) => n.startsWith('workspace.json.unreadable-'));

describe('an unreadable workspace.json', () => {
  it.each([
    ['garbage', 'not json at all {{{', /it is not valid JSON.*it held 19 bytes/],
    [
      'a half-written file',
      JSON.stringify(saved).slice(0, 115),
      /ends in the middle.*tabs of 1 connection \(tables Orders\), /,
    ],
    ['a file of another shape', JSON.stringify({ version: 7, tabs: [] }), /not in the form DynoTable writes/],
  ])(
    '%s is set aside with a sentence, kept byte for byte, and never overwritten by the next save',
    async (_, bytes, says) => {
      const { dataDir, ctx } = dataFolder();
      await writeFile(path.join(dataDir, 'workspace.json'), bytes);

      const loaded = await workspaceHandlers['workspace:load']({}, ctx);

      expect(loaded.snapshot).toBeNull();
      expect(loaded.setAside?.message).toMatch(
        /^Your saved workspace \(.*workspace\.json\) could not be read: /,
      );
      expect(loaded.setAside?.message).toMatch(says);
      expect(loaded.setAside?.message).toMatch(
        /DynoTable kept it unchanged as workspace\.json\.unreadable-.* The workspace starts empty\.$/,
      );
      const [kept] = await keptFiles(dataDir);
      expect(loaded.setAside?.keptAs).toBe(path.join(dataDir, kept!));
      expect(await readFile(path.join(dataDir, kept!), 'utf8')).toBe(bytes);

      // The rest works: a save lands, reads back, and leaves the kept file as it was.
      await workspaceHandlers['workspace:save']({ snapshot: saved }, ctx);
      expect(await workspaceHandlers['workspace:load']({}, ctx)).toEqual({ snapshot: saved });
      expect(await keptFiles(dataDir)).toEqual([kept]);
      expect(await readFile(path.join(dataDir, kept!), 'utf8')).toBe(bytes);
    },
  );

  it('a missing file is a first start: no snapshot, nothing to say', async () => {
    const { ctx } = dataFolder();
    expect(await workspaceHandlers['workspace:load']({}, ctx)).toEqual({ snapshot: null });
  });
});
