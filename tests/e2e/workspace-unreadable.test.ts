import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAppInBrowser } from './support/session';

// Garbage in workspace.json (a disk error, a hand edit gone wrong) is set aside, kept, and the
// user is told so on opening, instead of an empty workspace that the next save writes over.
const session = useAppInBrowser();
const garbage = '{"version":1,"connections":[{"connectionId":"prod-eu","tables":[{"name":"Orders"';

describe('an unreadable saved workspace', () => {
  it('is named on opening, with where it was kept, and the picker still works', async () => {
    const { dataDir } = session.app;
    await writeFile(path.join(dataDir, 'workspace.json'), garbage);

    const page = await session.openPage();

    const notice = page.getByRole('status').filter({ hasText: 'Your saved workspace' });
    await notice.waitFor({ timeout: 30_000 });
    const text = await notice.innerText();
    expect(text).toContain('could not be read: it ends in the middle');
    expect(text).toMatch(/kept it unchanged as workspace\.json\.unreadable-/);
    expect(text).toContain('tabs of 1 connection (tables Orders)');
    expect(text).toContain('The workspace starts empty.');
    const kept = (await readdir(dataDir)).filter((n) => n.startsWith('workspace.json.unreadable-'));
    expect(kept).toHaveLength(1);
    expect(await readFile(path.join(dataDir, kept[0]!), 'utf8')).toBe(garbage);

    await page.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open playground' }).waitFor();
    expect(session.browser.pageErrors).toEqual([]);
  });
});
