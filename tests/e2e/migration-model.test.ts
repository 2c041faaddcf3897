import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-run';
import { createTable, putItems } from '../support/dynamo-tables';
import { axeViolations } from './support/axe';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Issue 15 item 4 in the app: the dynotable-orm model the Schema view saves, given to the
// Pre-flight view in browser mode, changes the verdict as `scan-migration --model` does.
const table = 'EventsModel';
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dynotable-e2e-model-'));
  await createTable(session.playgroundClient, table, { partitionKey: ['id', 'S'] });
  await putItems(
    session.playgroundClient,
    table,
    ['2024-01-05T10:00:00.000Z', '2024-02-06T11:30:00Z', '2024-03-07T08:00:00.000Z'].map((occurredAt, i) => ({
      id: { S: `event#${i}` },
      occurredAt: { S: occurredAt },
      title: { S: `Event ${i}` },
    })),
  );
}, 120_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a dynotable-orm model in the Pre-flight view', () => {
  it('goes from the model saved in the Schema view to a pre-flight verdict that counts it', async () => {
    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Pre-flight');
    const verdict = page.locator('.mig-verdict');
    await page.getByRole('button', { name: 'Scan table' }).click();
    await verdict.waitFor(slow);
    await expect.poll(() => verdict.innerText(), slow).toContain('the models need a setting');

    // The line under the picker leads to the Schema view, where the model is generated and saved.
    await page.getByRole('button', { name: 'Open the Schema view' }).click();
    await page.getByRole('tab', { name: 'Schema', selected: true }).waitFor();
    await page.getByRole('button', { name: 'Sample', exact: true }).click();
    const model = page.getByRole('region', { name: /^Model of / });
    await model.waitFor(slow);
    await model.getByLabel('Format').selectOption('orm');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      model.getByRole('button', { name: 'Save to a file' }).click(),
    ]);
    const saved = path.join(dir, download.suggestedFilename());
    await download.saveAs(saved);
    expect(await readFile(saved, 'utf8')).toContain("defaultDateStorage: 'iso'");

    await page.getByRole('tab', { name: 'Pre-flight', exact: true }).click();
    // A read limit typed before the model is given: refusing a bad file must not lose it.
    await page.getByLabel('Read limit').selectOption('items');
    await page.getByLabel('Per second', { exact: true }).fill('250');
    const picker = page.getByLabel(/^Use (a|another) dynotable-orm model…$/);
    const section = page.getByRole('region', { name: "Models' date storage" });
    // Reached by keyboard: the file input is named, and its button-like label shows the focus.
    await picker.focus();
    await screenshots(page, 'migration-model-none', section, {
      block: 'start',
      check: async () =>
        expect(
          await picker.evaluate((input) => getComputedStyle(input.parentElement as Element).outlineStyle),
        ).toBe('solid'),
    });
    await picker.setInputFiles(saved);
    const summary = page.getByRole('region', { name: `What ${path.basename(saved)} says` });
    await summary.waitFor();
    const row = await summary.locator('tbody tr').first().innerText();
    expect(row).toContain('ISO strings');
    expect(row).toContain('(defaultDateStorage)');
    expect(row).toContain('occurredAt');
    expect(row).toContain('title');
    // The open report is restated at once; a new scan says the same.
    await expect
      .poll(() => verdict.innerText(), slow)
      .toContain('Acknowledged model settings: occurredAt ISO strings');
    await page.getByRole('button', { name: 'Scan table' }).click();
    await expect.poll(() => page.locator('.mig-scans tbody tr').count(), slow).toBe(2);
    await expect.poll(() => verdict.innerText(), slow).toContain('Ready: no data fix needed');
    const card = page.locator('.mig-card').filter({ hasText: 'occurredAt' });
    await expect.poll(() => card.innerText()).toMatch(/model\s+\S+ stores ISO strings here/);
    // Light and dark: the summary table, the model note on the card and the picker pass axe.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page, { include: '.mig-page' })).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshots(page, 'migration-model', section, { block: 'start' });

    // The CLI gate reads the same file and agrees.
    const cli = await runCli(
      [
        'scan-migration',
        '--table',
        table,
        '--endpoint',
        session.playgroundEndpoint,
        '--quiet',
        '--model',
        saved,
      ],
      { AWS_REGION: 'us-east-1' },
    );
    expect(cli.code).toBe(0);

    // A file that is not a model: a sentence, and the model in use and the form keep their values.
    await picker.setInputFiles({
      name: 'notes.ts',
      mimeType: 'text/plain',
      buffer: Buffer.from('export const x = 1;\n'),
    });
    await expect
      .poll(() => section.getByRole('alert').innerText(), slow)
      .toContain('notes.ts has no dynotable-orm model(...) in it');
    await expect.poll(() => summary.isVisible()).toBe(true);
    await expect.poll(() => page.getByLabel('Per second', { exact: true }).inputValue()).toBe('250');
    await screenshots(page, 'migration-model-refused', section, { block: 'start' });

    // Larger than a model file can be (1 MB): refused in the page with a sentence; the model stays.
    await picker.setInputFiles({
      name: 'huge.ts',
      mimeType: 'text/plain',
      buffer: Buffer.alloc(1_100_000, 'a'),
    });
    await expect
      .poll(() => section.getByRole('alert').innerText(), slow)
      .toContain('huge.ts is larger than 1 MB');
    await expect.poll(() => summary.isVisible()).toBe(true);

    // Removed: the verdict asks for the setting again.
    await page.getByRole('button', { name: 'Remove model' }).click();
    await summary.waitFor({ state: 'detached' });
    await expect.poll(() => verdict.innerText(), slow).toContain('the models need a setting');
  });
});
