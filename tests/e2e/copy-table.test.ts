import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { sampleItems } from '../../resources/playground/sample-table';
import { useColorScheme } from './support/browser';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// "Copy to…" from the Items tab, driven like a user: the real browser-mode server and core, the
// playground's DynamoDB Local, Debian's Chromium.
const table = 'DynoTableSample';
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });

async function count(name: string): Promise<number> {
  let total = 0;
  let start: Record<string, never> | undefined;
  do {
    const page = await session.playgroundClient.send(
      new ScanCommand({ TableName: name, ExclusiveStartKey: start, Select: 'COUNT' }),
    );
    total += page.Count ?? 0;
    start = page.LastEvaluatedKey as typeof start;
  } while (start);
  return total;
}

describe('Copy to…', () => {
  it('copies the playground table to a new table, shows progress and the verification, and lists the new table', async () => {
    const page = await session.openPage();
    await openPlaygroundTable(page, table, 'Items');
    const target = `SampleCopy-${Date.now().toString(36)}`;
    await page.getByRole('button', { name: 'Copy to…' }).click();
    const dialog = page.getByRole('dialog', { name: `Copy ${table} to…` });
    await dialog.getByRole('radio', { name: 'The whole table' }).check();
    await dialog.getByLabel('Target table').fill(target);
    await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
    // Progress shows while it runs (the counts), then the report with the verification.
    await dialog.getByText('Written').first().waitFor(slow);
    const expected = sampleItems().length;
    await dialog
      .getByText(`Verified: both sides hold the same ${expected} items`, { exact: false })
      .waitFor(slow);
    await dialog.getByText(`${target} (created)`, { exact: false }).waitFor();
    for (const [width, height] of [
      [1024, 700],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await session.browser.screenshotBothSchemes(`copy-dialog-done-${width}x${height}`);
    }
    await useColorScheme(page, 'light');
    await expect.poll(() => count(target)).toBe(expected);
    await expect.poll(() => count(target)).toBe(await count(table));

    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('tab', { name: 'Tables', exact: true }).click();
    const row = page.getByTestId('table-row').filter({ hasText: target });
    await row.waitFor(slow);
    await expect
      .poll(() => row.locator('td.num').first().getAttribute('title'), slow)
      .toBe(`About ${expected} items`);
    expect(session.browser.pageErrors).toEqual([]);
  }, 300_000);

  it('shows the form before a copy starts, Copy waits for a target table name, and the Overview opens it on the whole table', async () => {
    const page = session.browser.page;
    await page.getByRole('button', { name: table, exact: true }).click();
    await page.getByRole('tab', { name: 'Items' }).click();
    await page.getByRole('button', { name: 'Copy to…' }).click();
    const dialog = page.getByRole('dialog', { name: `Copy ${table} to…` });
    await dialog.getByText('Key mapping, speed and checks').click();
    for (const [width, height] of [
      [1024, 700],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await session.browser.screenshotBothSchemes(`copy-dialog-form-${width}x${height}`);
    }
    await useColorScheme(page, 'light');
    await dialog.getByLabel('Target table').fill('');
    await expect
      .poll(() => dialog.getByRole('button', { name: 'Copy', exact: true }).isDisabled(), slow)
      .toBe(true);

    // The Overview's Copy card: its sentence and button sit inside the card, not on its border.
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Overview' }).click();
    const card = page.getByRole('region', { name: 'Copy' });
    const inset = await card.evaluate((section) => {
      const box = section.getBoundingClientRect();
      const inner = [...section.children].filter((child) => child.tagName !== 'H2');
      return Math.min(
        ...inner.map((child) => {
          const range = document.createRange();
          range.selectNodeContents(child);
          const text = range.getBoundingClientRect();
          return Math.min(text.left - box.left, box.right - text.right);
        }),
      );
    });
    expect(inset).toBeGreaterThanOrEqual(8);
    await screenshots(page, 'overview-copy-card', card);
  }, 120_000);

  it('lists copies stopped midway when the dialog opens again: Discard forgets one, Resume finishes the other', async () => {
    const page = session.browser.page;
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.keyboard.press('Escape');
    await openPlaygroundTable(page, table, 'Items');
    const dialog = page.getByRole('dialog', { name: `Copy ${table} to…` });
    const stamp = Date.now().toString(36);
    const kept = `SampleKept-${stamp}`;
    const dropped = `SampleDropped-${stamp}`;
    // Two copies, each cancelled once its first items are written (20 items/s leaves time to).
    for (const target of [kept, dropped]) {
      await page.getByRole('button', { name: 'Copy to…' }).click();
      await dialog.getByRole('radio', { name: 'The whole table' }).check();
      await dialog.getByLabel('Target table').fill(target);
      await dialog.getByText('Key mapping, speed and checks').click();
      await dialog.getByRole('textbox', { name: 'Write rate', exact: true }).fill('20');
      await dialog.getByRole('button', { name: 'Copy', exact: true }).click();
      await dialog.getByText('Written').first().waitFor(slow);
      await dialog.getByRole('button', { name: 'Cancel copy' }).click();
      await dialog.getByText('Stopped. What was copied stays copied').waitFor(slow);
      await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    }
    const expected = sampleItems().length;
    await expect.poll(() => count(kept)).toBeLessThan(expected);

    await page.getByRole('button', { name: 'Copy to…' }).click();
    const unfinished = dialog.getByRole('region', { name: `Unfinished copies of ${table}` });
    await unfinished.getByText(kept).waitFor(slow);
    await unfinished.getByText(dropped).waitFor();
    await session.browser.screenshotBothSchemes('copy-dialog-unfinished');
    await useColorScheme(page, 'light');

    await unfinished.getByRole('button', { name: `Discard the copy to ${dropped}` }).click();
    await expect.poll(() => unfinished.getByText(dropped).count(), slow).toBe(0);
    // Main forgot its checkpoint too, not only this list.
    const targets = await page.evaluate(async () => {
      const response = await fetch('/api/copy:list', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        credentials: 'same-origin',
        body: '{}',
      });
      const answer = (await response.json()) as {
        ok: boolean;
        value?: { copies: { target: { table: string } }[] };
      };
      return (answer.value?.copies ?? []).map((c) => c.target.table);
    });
    expect(targets).toContain(kept);
    expect(targets).not.toContain(dropped);

    await unfinished.getByRole('button', { name: 'Resume' }).click();
    await dialog
      .getByText(`Verified: both sides hold the same ${expected} items`, { exact: false })
      .waitFor({ timeout: 240_000 });
    await expect.poll(() => count(kept)).toBe(expected);
    await expect
      .poll(() => dialog.getByRole('region', { name: `Unfinished copies of ${table}` }).count(), slow)
      .toBe(0);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  }, 400_000);
});
