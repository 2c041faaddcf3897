import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFolder } from '../../src/main/files/data-folder';
import { stoppedJobs } from '../../src/main/jobs/work-records';
import { rawScanAll } from '../support/copy-oracle';
import { createKeyedTable } from '../support/dynamo-tables';
import { startFaultyDynamo, type FaultyDynamo } from '../support/faulty-dynamo';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';
import { saveKeysConnection } from './support/app';
import { expectFocusVisible, tabTo } from './support/keyboard';
import { useColorScheme } from './support/browser';
import { contrast, disabledLook } from './support/contrast';

// A file import stopped mid-way and resumed from the import dialog, driven like a user: the real
// browser-mode server and core, the playground's DynamoDB Local, Debian's Chromium. A profile
// connection reaches DynamoDB Local through a server that can hold one write, so Cancel always
// lands mid-import, however fast or loaded the machine. The table is then compared with the file
// by a raw Scan of DynamoDB Local, not through the app.
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });
const table = `ImportResume-${Date.now().toString(36)}`;
const LINES = 2_000;
let faulty: FaultyDynamo;
let connectionId: string;

beforeAll(async () => {
  faulty = await startFaultyDynamo(session.playgroundEndpoint);
  await createKeyedTable(session.playgroundClient, table);
  const saved = await saveKeysConnection(session.app, 'Import target', faulty.endpoint);
  connectionId = saved.id;
});
afterAll(() => faulty.close());

describe('Resume a stopped import', () => {
  it('lists a cancelled import with where it stopped, refuses a changed file with a sentence, and resumes to exactly the file', async () => {
    // A file in DynoTable's export folder on the server, as browser mode reads one by name.
    const folder = dataFolder.exports(session.app.dataDir);
    await mkdir(folder, { recursive: true });
    const name = `${table}.jsonl`;
    const file = path.join(folder, name);
    const text = Array.from({ length: LINES }, (_, i) =>
      JSON.stringify({ id: { S: `item-${i}` }, n: { N: String(i) } }),
    ).join('\n');
    await writeFile(file, text);
    // A whole second, so the file can be put back exactly as it was after the edit below.
    const modified = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    await utimes(file, modified, modified);

    const page = await session.openPage();
    const card = page.getByTestId('connection-card').filter({ hasText: 'Import target' });
    await card.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('button', { name: table, exact: true }).click(slow);
    await page.getByRole('tab', { name: 'Items', exact: true }).click();
    await page.getByRole('button', { name: 'Import…' }).click();
    const importing = page.getByRole('dialog', { name: `Import into ${table}` });
    await importing.getByLabel("A file on the server, in DynoTable's export folder").fill(name);
    // Import waits for a dry run. Disabled, it must not look like the enabled primary button in
    // either theme (in dark, the faded blue fill read as enabled), and its words must still read.
    const importButton = importing.getByRole('button', { name: 'Import', exact: true });
    expect(await importButton.isDisabled()).toBe(true);
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page, scheme);
      const { enabled, disabled } = await disabledLook(importButton);
      expect(disabled.opacity, scheme).toBe('1');
      expect(contrast(disabled.background, enabled.background), scheme).toBeGreaterThanOrEqual(3);
      expect(contrast(disabled.color, disabled.background), scheme).toBeGreaterThanOrEqual(4);
    }
    await screenshots(page, 'import-disabled-import', importButton);
    await importing.getByRole('button', { name: 'Dry run' }).click();
    await importing
      .getByText(
        `Dry run: ${LINES.toLocaleString('en-US')} read · ${LINES.toLocaleString('en-US')} would be written`,
      )
      .waitFor(slow);
    // The 201st write of the table waits at the door until Cancel was pressed.
    const held = faulty.holdOne({ operation: 'PutItem', bodyIncludes: table, after: 200 });
    await importing.getByRole('button', { name: 'Import', exact: true }).click();
    await held.reached;
    await importing
      .getByRole('group', { name: 'Importing' })
      .getByText(/(^|\s)[1-9][\d,]* processed/)
      .waitFor(slow);
    await importing.getByRole('button', { name: 'Cancel' }).click();
    await importing.getByText('Cancelled. What was done before stays done.').waitFor(slow);
    // Cancel aborted the held call, so letting it go sends nothing more.
    held.release();
    faulty.heal();
    const written = (await rawScanAll(session.playgroundEndpoint, table)).length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(LINES);
    await importing.getByRole('button', { name: 'Close', exact: true }).click();

    // Opened again with the mouse (as after a restart): the dialog moves focus to its first
    // control, and that focus shows, though :focus-visible stays off after a click.
    await page.getByRole('button', { name: 'Import…' }).click();
    const list = importing.getByRole('region', { name: `Imports of ${table} that did not finish` });
    await list.waitFor(slow);
    await expectFocusVisible(page);
    // The import's record says where it stopped in the file's own lines, and the numbers agree:
    // every line done held one new item, so as many were written, and Resume goes on at the next.
    const sentence = await list.getByRole('listitem').innerText();
    const stopped = new RegExp(
      `The import of ${name.replace(/\./g, '\\.')} into ${table} stopped when it was cancelled\\. Lines 1–([\\d,]+) of the file are done: ([\\d,]+) items written, 0 already in the table, 0 with problems\\. Resume goes on at line ([\\d,]+) of the same file, unless the file changed since\\.`,
    ).exec(sentence);
    expect(stopped, sentence).not.toBeNull();
    const [linesDone, itemsWritten, next] = (stopped ?? []).slice(1).map((n) => Number(n.replace(/,/g, '')));
    expect(itemsWritten).toBe(linesDone);
    expect(itemsWritten).toBe(written);
    expect(next).toBe((linesDone ?? 0) + 1);
    const resume = list.getByRole('button', { name: /^Resume the import stopped/ });
    await expect.poll(() => resume.isDisabled()).toBe(false);
    // Reached with the keyboard, as a user would go from the first control to Resume.
    await tabTo(page, resume);
    await screenshots(page, 'import-resume-stopped', list, { check: expectFocusVisible });

    // The file changed since: Resume is refused with the sentence, and nothing is written.
    await writeFile(file, `${text}\n${JSON.stringify({ id: { S: 'added-later' } })}`);
    await resume.click();
    const refusal = importing.getByText(/changed since the import stopped/);
    await refusal.waitFor(slow);
    await expect
      .poll(() => refusal.innerText())
      .toMatch(
        new RegExp(
          `^${name.replace(/\./g, '\\.')} changed since the import stopped \\(it was [\\d,]+ bytes, it is [\\d,]+ now`,
        ),
      );
    await screenshots(page, 'import-resume-file-changed', refusal);
    await expect.poll(async () => (await rawScanAll(session.playgroundEndpoint, table)).length).toBe(written);

    // Put back as it was, the same import resumes after its last line and the table holds the file.
    await writeFile(file, text);
    await utimes(file, modified, modified);
    expect(await readFile(file, 'utf8')).toBe(text);
    await list.getByRole('button', { name: /^Resume the import stopped/ }).click();
    await importing
      .getByText(/^[\d,]+ read · [\d,]+ written · [\d,]+ already exist · 0 invalid · 0 failed$/)
      .waitFor({
        timeout: 240_000,
      });
    await screenshots(page, 'import-resume-done', importing.getByText(/ read · /));

    const stored = await rawScanAll(session.playgroundEndpoint, table);
    const byId = new Map(stored.map((item) => [(item.id as { S: string }).S, (item.n as { N: string }).N]));
    expect(stored).toHaveLength(LINES);
    for (let i = 0; i < LINES; i++) expect(byId.get(`item-${i}`)).toBe(String(i));
    // Finished, it is forgotten in main: nothing of this table is left to resume.
    const left = await stoppedJobs(session.app.core, connectionId);
    expect(left.jobs.filter((job) => job.table === table)).toEqual([]);
    expect(session.browser.pageErrors).toEqual([]);
  }, 300_000);
});
