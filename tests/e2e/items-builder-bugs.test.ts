import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { QueryCommand, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPlaygroundTable } from './support/playground-table';
import { useAppInBrowser } from './support/session';
import { openRowByKey } from './support/grid-rows';

// Issue 10's builder and editor bugs, each driven as the user met it on the playground.
const table = 'DynoTableSample';
const slow = { timeout: 120_000 };
const root = path.resolve(__dirname, '../..');

const session = useAppInBrowser({ withPlayground: true });

async function itemsPage(): Promise<Page> {
  const page = session.browser.page;
  if (!page.url().startsWith('http') || (await page.getByRole('tab', { name: 'Items' }).count()) === 0) {
    await session.openPage();
    await openPlaygroundTable(page, table, 'Items');
  }
  return page;
}

async function showOptions(page: Page): Promise<void> {
  if ((await page.getByLabel('Page size').count()) === 0)
    await page.getByRole('button', { name: 'Options' }).click();
}

async function scanAndWait(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  await page.locator('.item-grid-row .item-grid-cell').first().waitFor(slow);
  await page.getByRole('status').filter({ hasText: /RCU/ }).waitFor(slow);
}

/** What DynamoDB Local itself returns for a filtered scan of the whole table: the oracle. */
async function storedMatching(
  filter: string,
  names: Record<string, string>,
  values: Record<string, AttributeValue>,
) {
  const items: Record<string, AttributeValue>[] = [];
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await session.playgroundClient.send(
      new ScanCommand({
        TableName: table,
        FilterExpression: filter,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

async function runNode(code: string): Promise<string> {
  // Inside the project, so the snippet's import of @aws-sdk/client-dynamodb resolves as a user's would.
  const dir = path.join(root, '.tmp', 'snippets');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `snippet-${process.pid}-${Date.now()}.mjs`);
  await writeFile(file, code);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [file], { timeout: 60_000 });
    return stdout;
  } finally {
    await rm(file, { force: true });
  }
}

describe('Items builder and editor, as issue 10 found them', () => {
  it('opens "Delete / update…" with nothing selected on the selection, with no action chosen', async () => {
    const page = await itemsPage();
    await scanAndWait(page);
    await page.getByRole('button', { name: 'Delete / update…' }).click();
    const dialog = page.getByRole('dialog');
    const scope = dialog.getByRole('group', { name: 'Which items' });
    await expect.poll(() => scope.getByRole('radio', { name: '0 selected' }).isChecked()).toBe(true);
    await expect.poll(() => scope.getByRole('radio', { name: 'Every queried item' }).isChecked()).toBe(false);
    const action = dialog.getByRole('group', { name: 'Action' });
    await expect.poll(() => action.getByRole('radio', { name: 'Delete' }).isChecked()).toBe(false);
    await expect.poll(() => action.getByRole('radio', { name: 'Update' }).isChecked()).toBe(false);
    await dialog.getByRole('status').filter({ hasText: 'Nothing is selected' }).waitFor();
    await expect.poll(() => dialog.getByRole('button', { name: 'Preview' }).isDisabled()).toBe(true);
    await session.browser.screenshotBothSchemes('bulk-dialog-nothing-selected');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('creating an item whose key exists says so and opens the stored item', async () => {
    const page = await itemsPage();
    const [existing] = await storedMatching('#e = :e', { '#e': 'entity' }, { ':e': { S: 'Payment' } });
    if (!existing?.PK?.S || !existing.SK?.S) throw new Error('The sample has no payment');
    await page.getByRole('button', { name: 'New item' }).click();
    const editor = page.getByRole('complementary', { name: 'Item editor' });
    await editor.getByRole('tab', { name: 'DynamoDB JSON' }).click();
    await editor
      .getByLabel('Item as DynamoDB JSON')
      .fill(JSON.stringify({ PK: { S: existing.PK.S }, SK: { S: existing.SK.S }, note: { S: 'mine' } }));
    await editor.getByRole('button', { name: 'Create' }).click();
    const notice = editor.getByRole('alert', { name: 'Key exists' });
    await notice.waitFor();
    await expect
      .poll(() => notice.innerText())
      .toContain(`${existing.PK.S} · ${existing.SK.S} already exists`);
    await expect.poll(() => editor.innerText()).not.toMatch(/changed by someone else/i);
    await session.browser.screenshotBothSchemes('editor-key-exists');
    await notice.getByRole('button', { name: 'Open that item' }).click();
    // The draft holds more than the key ("note"): leaving it asks first, as any step that would
    // drop typing does.
    const unsaved = page.getByRole('dialog', { name: 'Save your changes?' });
    await unsaved.getByRole('button', { name: 'Discard' }).click();
    await expect
      .poll(() => editor.locator('h2').innerText(), slow)
      .toBe(`${existing.PK.S} · ${existing.SK.S}`);
    await editor.getByRole('tab', { name: 'DynamoDB JSON' }).click();
    const json = editor.getByLabel('Item as DynamoDB JSON');
    await expect.poll(() => json.innerText(), slow).toContain(JSON.stringify(existing.paymentId?.S));
    const text = await json.innerText();
    expect(text).not.toContain('"mine"');
    // The key attributes come first, whatever order DynamoDB returned them in.
    expect(text.replace(/\s+/g, ' ')).toMatch(/^\{ "PK": \{ "S": "[^"]+" \}, "SK": /);
    await editor.getByRole('button', { name: 'Close the editor' }).click();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('carries the form filter into raw mode, takes plain JSON values, and names the box at fault', async () => {
    const page = await itemsPage();
    await page.getByRole('button', { name: '+ Filter' }).click();
    await page.getByLabel('Attribute path').fill('status');
    await page.getByLabel('Value', { exact: true }).fill('PAID');
    await page.getByRole('button', { name: 'Raw expressions' }).click();
    const filter = page.getByLabel('Filter expression');
    const names = page.getByLabel('Expression attribute names');
    const values = page.getByLabel('Expression attribute values');
    await expect.poll(() => filter.inputValue()).toBe('#status = :status');
    expect(JSON.parse(await names.inputValue())).toEqual({ '#status': 'status' });
    expect(JSON.parse(await values.inputValue())).toEqual({ ':status': 'PAID' });

    // The issue's own input: a plain value, typed as the form would type it.
    await filter.fill('#status = :v');
    await values.fill('{":v":"PAID"}');
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /RCU/ }).waitFor(slow);
    const expected = await storedMatching('#s = :v', { '#s': 'status' }, { ':v': { S: 'PAID' } });
    expect(expected.length).toBeGreaterThan(0);
    // The default read evaluates 100 items; until-matches makes it read until all of them match.
    await showOptions(page);
    await page.getByLabel('Max items').fill('1000');
    await page.getByRole('checkbox', { name: /Fetch until/ }).check();
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await expect
      .poll(() => page.locator('.progress-line').innerText(), slow)
      .toMatch(new RegExp(`^${expected.length} items`));
    await session.browser.screenshotBothSchemes('builder-raw-plain-values');

    // DynamoDB JSON still works, and a typo is placed at its box with its line and column.
    await values.fill('{":v": {"S": "PAID"}, ":n": 12.}');
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    const valuesError = page.locator('.qb-raw-box', { has: values }).getByRole('alert');
    await expect.poll(() => valuesError.innerText()).toMatch(/^Line 1, column \d+: /);
    await expect.poll(() => page.locator('body').innerText()).not.toContain('spec.raw');

    // DynamoDB's own refusal speaks of the box, not of a request parameter.
    await values.fill('{":v": {"S": "PAID"}, ":unused": 3}');
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await expect.poll(() => valuesError.innerText(), slow).toMatch(/the expression attribute values/);
    await expect.poll(() => valuesError.innerText()).not.toMatch(/ExpressionAttributeValues|spec\./);
    await session.browser.screenshot('builder-raw-refused');

    await values.fill('{":v": "PAID"}');
    await page.getByRole('button', { name: 'Use the form' }).click();
    await page.getByRole('button', { name: 'Remove the condition' }).click();
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('checks page size and max items where they are typed, and Scan says why it did not run', async () => {
    const page = await itemsPage();
    await showOptions(page);
    const pageSize = page.getByLabel('Page size');
    const maxItems = page.getByLabel('Max items');
    await maxItems.fill('10000000');
    const maxError = page.locator(`[id="${await describedBy(maxItems)}"]`);
    await expect.poll(() => maxError.innerText()).toMatch(/Max items must be from 1 to 1,000,000/);
    await expect
      .poll(() =>
        page
          .getByRole('checkbox', { name: /Fetch until/ })
          .locator('..')
          .innerText(),
      )
      .toBe('Fetch until N matches');
    await maxItems.fill('500');
    await expect.poll(() => maxItems.getAttribute('aria-invalid')).toBe('false');
    await pageSize.fill('10000000');
    const sizeError = page.locator(`[id="${await describedBy(pageSize)}"]`);
    await expect
      .poll(() => sizeError.innerText())
      .toMatch(/Page size must be from 1 to 1,000; 10,000,000 is not/);
    await session.browser.screenshotBothSchemes('builder-limits');

    // With Options closed, Scan still says why, and opens them on the field to fix.
    await page.getByRole('button', { name: 'Options' }).click();
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.getByText(/^Scan did not run: Page size must be from 1 to 1,000/).waitFor();
    await pageSize.waitFor();
    await pageSize.fill('100');
    await expect.poll(() => page.getByText(/did not run/).count(), slow).toBe(0);
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('copies a query as SDK v3 code that runs against the playground, and an AWS CLI line with its endpoint', async () => {
    const page = await itemsPage();
    await page.getByRole('radio', { name: 'Query' }).click();
    await page.getByLabel('Table or index').selectOption('GSI1');
    await page.getByLabel('Partition key GSI1PK').fill('STATUS#SHIPPED');
    await showOptions(page);
    await page.getByLabel('Page size').fill('7');
    await page.getByLabel('Max items').fill('30');
    await page.getByRole('checkbox', { name: /Fetch until/ }).uncheck();
    await page.getByRole('button', { name: 'Show the request' }).click();
    const preview = page.locator('.request-preview');
    await preview.getByRole('button', { name: 'AWS CLI' }).click();
    const text = preview.locator('.request-preview-text');
    await expect.poll(() => text.innerText(), slow).toMatch(/ aws dynamodb query/);
    const cli = await text.innerText();
    expect(cli).toContain(`--endpoint-url '${session.playgroundEndpoint}'`);
    expect(cli).toContain(`--region 'us-east-1'`);
    expect(cli).not.toContain(`'local'`);
    expect(cli).toMatch(/^AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local aws dynamodb query/);
    expect(cli).toContain('--page-size 7');
    expect(cli).toContain('--max-items 30');
    await session.browser.screenshotBothSchemes('builder-request-cli');

    await preview.getByRole('button', { name: 'AWS SDK v3' }).click();
    await expect.poll(() => text.innerText(), slow).toContain('@aws-sdk/client-dynamodb');
    const code = await text.innerText();
    const printed = JSON.parse(await runNode(code)) as Record<string, AttributeValue>[];
    const oracle = await session.playgroundClient.send(
      new QueryCommand({
        TableName: table,
        IndexName: 'GSI1',
        KeyConditionExpression: 'GSI1PK = :pk',
        ExpressionAttributeValues: { ':pk': { S: 'STATUS#SHIPPED' } },
        Limit: 30,
      }),
    );
    expect(printed.length).toBe(Math.min(30, oracle.Count ?? 0));
    expect(printed).toEqual(oracle.Items);

    // The editor's request: the same endpoint and a real region.
    // The grid still holds the earlier filtered Scan's rows until the Query's replace them: wait
    // for the Query's own count (no "evaluated": nothing filtered) before opening its first row.
    await page.getByRole('button', { name: 'Query', exact: true }).click();
    await page
      .locator('.progress-line')
      .filter({ hasText: new RegExp(`^${printed.length} items · \\d+ pages? · [\\d.]+ RCU`) })
      .waitFor(slow);
    await page.locator('.item-grid-row .item-grid-cell').first().waitFor(slow);
    await openRowByKey(page.locator('.item-grid-row').first());
    const editor = page.getByRole('complementary', { name: 'Item editor' });
    await editor.getByLabel('currency', { exact: true }).fill('CHF');
    await editor.getByRole('button', { name: 'Show the request' }).click();
    await editor.getByRole('button', { name: 'AWS CLI' }).click();
    const editText = editor.locator('.request-preview-text');
    await expect.poll(() => editText.innerText(), slow).toMatch(/ aws dynamodb update-item/);
    const editCli = await editText.innerText();
    expect(editCli).toMatch(/^AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local aws dynamodb update-item/);
    expect(editCli).toContain(`--endpoint-url '${session.playgroundEndpoint}'`);
    expect(editCli).toContain(`--region 'us-east-1'`);
    // The edit was only for its request: closing asks about it, and Discard drops it.
    await editor.getByRole('button', { name: 'Close the editor' }).click();
    await page
      .getByRole('dialog', { name: 'Save your changes?' })
      .getByRole('button', { name: 'Discard' })
      .click();
    await editor.waitFor({ state: 'detached' });
    expect(session.browser.pageErrors).toEqual([]);
  });

  it('fits the builder, the JSON editor and dates at 1024×700 and 1440×900, light and dark', async () => {
    const page = await itemsPage();
    await page.getByRole('radio', { name: 'Scan' }).click();
    await page.getByLabel('Table or index').selectOption('');
    await page.getByRole('button', { name: 'Raw expressions' }).click();
    await page.getByLabel('Filter expression').fill('#e = :e');
    await page.getByLabel('Expression attribute names').fill('{"#e": "entity"}');
    await page.getByLabel('Expression attribute values').fill('{":e": "Session"}');
    await showOptions(page);
    await page.getByLabel('Page size').fill('100');
    await page.getByLabel('Max items').fill('100');
    await page.getByRole('button', { name: 'Scan', exact: true }).click();
    await page.locator('.item-grid-row .item-grid-cell').first().waitFor(slow);
    await page.getByRole('checkbox', { name: 'View as dates' }).check();
    const dated = page.locator('.cell-date').first();
    await dated.waitFor();
    await expect.poll(() => dated.innerText()).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    await expect
      .poll(() => dated.getAttribute('title'))
      .toMatch(/^UTC: .+\nLocal \(.+\): .+\nStored: \S+ \((epoch|ISO)/);
    await openRowByKey(page.locator('.item-grid-row').first());
    // Double-click opens the item and leaves no word of the cell selected.
    await expect.poll(() => page.evaluate(() => window.getSelection()?.toString() ?? '')).toBe('');
    const editor = page.getByRole('complementary', { name: 'Item editor' });
    await editor.getByRole('tab', { name: 'DynamoDB JSON' }).click();
    const json = editor.getByLabel('Item as DynamoDB JSON');
    await json.click();
    await page.keyboard.press('End');
    await page.keyboard.type(',');
    await editor
      .getByRole('alert')
      .filter({ hasText: /^Line \d+, column \d+: / })
      .waitFor();
    await editor.locator('.cm-lint-marker-error').waitFor();
    await page.keyboard.press('Backspace');
    for (const [width, height] of [
      [1024, 700],
      [1440, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      const form = page.getByRole('form', { name: 'Query builder' });
      await expect.poll(() => form.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      await session.browser.screenshotBothSchemes(`items-builder-editor-${width}x${height}`);
    }
    await page.setViewportSize({ width: 1360, height: 820 });
    await page.getByRole('checkbox', { name: 'View as dates' }).uncheck();
    await editor.getByRole('button', { name: 'Close the editor' }).click();
    expect(session.browser.pageErrors).toEqual([]);
  });
});

describe('View as dates', () => {
  it('names the time zone it shows and stays on after a reload', async () => {
    const page = await itemsPage();
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await page.getByRole('checkbox', { name: 'View as dates' }).check();
    await page.getByRole('checkbox', { name: `View as dates (${zone})` }).waitFor();
    await page.reload();
    await openPlaygroundTable(page, table, 'Items');
    await expect
      .poll(() => page.getByRole('checkbox', { name: `View as dates (${zone})` }).isChecked())
      .toBe(true);
    await page.getByRole('checkbox', { name: 'View as dates' }).uncheck();
    await page.reload();
    await openPlaygroundTable(page, table, 'Items');
    await expect
      .poll(() => page.getByRole('checkbox', { name: 'View as dates', exact: true }).isChecked())
      .toBe(false);
    expect(session.browser.pageErrors).toEqual([]);
  });
});

describe('the sort key condition', () => {
  it('shows "begins with" whole in its select, at 1024×700', async () => {
    const page = await itemsPage();
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.getByRole('radio', { name: 'Query' }).click();
    // The test before leaves the builder in raw mode.
    const useForm = page.getByRole('button', { name: 'Use the form' });
    if ((await useForm.count()) > 0) await useForm.click();
    const op = page.getByLabel('Sort key condition');
    await op.selectOption('begins_with');
    // The select's text box is at least as wide as the words it shows in its own font.
    const fits = await op.evaluate((select) => {
      const style = getComputedStyle(select);
      const probe = document.createElement('span');
      probe.style.font = style.font;
      probe.style.position = 'absolute';
      probe.style.whiteSpace = 'nowrap';
      probe.textContent = 'begins with';
      document.body.append(probe);
      const text = probe.getBoundingClientRect().width;
      probe.remove();
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return { text, room };
    });
    expect(fits.room).toBeGreaterThanOrEqual(fits.text);
    await page.setViewportSize({ width: 1360, height: 820 });
    expect(session.browser.pageErrors).toEqual([]);
  });
});

async function describedBy(input: ReturnType<Page['getByLabel']>): Promise<string> {
  const id = await input.getAttribute('aria-describedby');
  if (!id) throw new Error('The field names no message');
  return id;
}
