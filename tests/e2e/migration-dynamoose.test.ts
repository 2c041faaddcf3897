import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeAllReleases } from '../support/dynamoose-releases';
import { axeViolations } from './support/axe';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// Issue 29 items 2 and 3 in the app, driven like a user: the team's dynamoose schema file picked
// in browser mode, its review before and after a scan, the generated dynotable-orm model, and the
// fix panel's rewrites of what the real dynamoose 0.8.7 … 4.2.0 stored, through to History.
const table = 'ReleasesDynamoose';
const slow = { timeout: 120_000 };
const file = path.join(import.meta.dirname, '../fixtures/dynamoose/releases-models.js');
const session = useAppInBrowser({ withPlayground: true });

beforeAll(async () => {
  await writeAllReleases(session.playgroundClient, session.playgroundEndpoint, table);
}, 180_000);

describe('a dynamoose schema file in the Pre-flight view', () => {
  it('reviews the file, checks the scanned items against it, and rewrites what older releases left', async () => {
    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Pre-flight');
    const picker = page.getByLabel(/^Use (a|another) dynamoose schema file…$/);
    await picker.setInputFiles(file);
    const review = page.getByRole('region', { name: /^dynamoose schema review/ });
    await review.waitFor();
    // Before any scan: the settings that change meaning, with what the new model must say.
    const settings = review.getByRole('table', { name: 'Settings that change meaning' });
    const alias = await settings.getByRole('row').filter({ hasText: 'alias/map' }).innerText();
    expect(alias).toContain('"surname"');
    expect(alias).toContain('Declare the field under the stored name "last"');
    await expect
      .poll(() => review.innerText())
      .toContain('Scan the table to hold the items against what the file declares');
    await expect
      .poll(() => review.getByRole('listitem').allInnerTexts())
      .toContain(
        "Expired items were hidden by dynamoose's reads; dynotable-orm returns them until DynamoDB deletes them.",
      );
    await screenshots(page, 'migration-dynamoose-before-scan', review, { block: 'start' });

    await page.getByRole('button', { name: 'Scan table' }).click();
    const conformance = review.getByRole('table', { name: 'Conformance per attribute' });
    await conformance.waitFor(slow);
    const active = conformance.getByRole('row').filter({ hasText: 'User' }).filter({ hasText: 'active' });
    await expect
      .poll(() => active.innerText())
      .toContain('20 of 20 items store a string where the model declares Boolean.');
    // Its sample keys open the items, as the report's do.
    await expect
      .poll(() => active.getByRole('button', { name: /^Show the JSON of / }).count())
      .toBeGreaterThan(0);
    const stamp = conformance.getByRole('row').filter({ hasText: 'Post' }).filter({ hasText: 'timestamp' });
    await expect.poll(() => stamp.innerText()).toContain('Dates: epoch ms 7');

    await review.getByText('The dynotable-orm model that reads this data').click();
    const model = review
      .getByRole('region', { name: 'Generated dynotable-orm model' })
      .or(review.getByLabel('Generated dynotable-orm model'));
    const text = await model.innerText();
    expect(text).toContain("ttl: dateStorage(z.date(), 'epochSeconds').optional()");
    expect(text).toContain('last: z.string(), // dynamoose alias surname: the table stores it as "last"');
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await axeViolations(page, { include: '.mig-page' })).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshots(page, 'migration-dynamoose-review', review, { block: 'start' });

    // The fix panel: pick the paths, preview counts and before/after, confirm.
    const fix = page.getByRole('region', { name: 'Fix', exact: true });
    await fix.getByRole('checkbox', { name: /^active: "true"\/"false" strings → BOOL/ }).check();
    await fix.getByRole('checkbox', { name: /^ttl: TTL in epoch ms → epoch seconds/ }).check();
    await fix.getByRole('radiogroup', { name: 'tags: sets and lists' }).getByLabel('Sets → lists').check();
    await fix.getByRole('button', { name: 'Dry run' }).click();
    const changes = fix.getByRole('table', { name: 'Sample rewrites, before and after' });
    await changes.waitFor(slow);
    const counts = await fix.locator('.mig-plan').innerText();
    expect(counts).toContain('active 20');
    expect(counts).toContain('ttl 3');
    expect(counts).toContain('tags 4');
    const boolRow = await changes.getByRole('row').filter({ hasText: 'active' }).first().innerText();
    expect(boolRow).toMatch(/\{"S":"(true|false)"\}\s+\{"BOOL":(true|false)\}/);
    await screenshots(page, 'migration-dynamoose-fix-preview', fix, { block: 'start' });

    await fix.getByRole('button', { name: /^Run fix \(\d+ updates\)$/ }).click();
    await expect.poll(() => fix.getByRole('status').innerText(), slow).toContain('Fix finished.');
    await expect.poll(() => fix.getByRole('status').innerText()).toContain('27 written');

    // A new scan no longer finds what was rewritten.
    await page.getByRole('button', { name: 'Scan table' }).click();
    await expect.poll(() => page.locator('.mig-scans tbody tr').count(), slow).toBe(2);
    await expect
      .poll(async () => (await page.locator('.mig-report').innerText()).includes('booleanAsString'), slow)
      .toBe(false);

    // History names the pre-flight's fix.
    await page.getByRole('tab', { name: 'Items', exact: true }).click();
    await page.getByRole('button', { name: 'Undo history…' }).click();
    const dialog = page.getByRole('dialog', { name: `Undo history — ${table}` });
    const entries = dialog.getByRole('list', { name: 'Recent writes' }).getByRole('listitem');
    await entries.first().waitFor(slow);
    await expect.poll(() => entries.first().innerText()).toMatch(/Pre-flight fix|pre-flight's fix/);
    expect(session.browser.pageErrors).toEqual([]);
  });
});
