import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SAMPLE_TABLE } from '../../resources/playground/sample-table';
import { createKeyedTable } from '../support/dynamo-tables';
import { check, noFindings, report, type Findings } from './support/axe-walk';
import { useColorScheme } from './support/browser';
import { openPlaygroundTable } from './support/playground-table';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';
import { openRowByKey } from './support/grid-rows';

// The table's tools under axe-core, once per theme at both window sizes: the Stream tab following
// live writes, the Schema tab with its model, Copy to…, the undo history with an entry, and the
// Overview's purge and delete confirmations filled in. Real server, core, playground, Chromium.
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });
const streamTable = `A11yTail-${Date.now().toString(36)}`;
let created: Promise<void> | undefined;

/** A table with a stream and two items, made once by "another client". */
function createStreamTable(): Promise<void> {
  created ??= createKeyedTable(session.playgroundClient, streamTable, {
    stream: 'NEW_AND_OLD_IMAGES',
    items: ['a', 'b'].map((id) => ({ id: { S: id }, n: { N: '1' } })),
  }).then(() => undefined);
  return created;
}

async function walk(page: Page, scheme: 'light' | 'dark', findings: Findings): Promise<void> {
  const shoot =
    scheme === 'light' ? (name: string, target?: Locator) => screenshots(page, name, target) : async () => {};
  const restore = async () => useColorScheme(page, scheme);

  await openPlaygroundTable(page, streamTable, 'Stream');
  await useColorScheme(page, scheme);
  const tail = page.getByRole('region', { name: 'Stream tail' });
  await tail.getByRole('button', { name: 'Follow stream' }).click(slow);
  await tail
    .getByRole('status')
    .filter({ hasText: /Following 1 shard/ })
    .waitFor(slow);
  await session.playgroundClient.send(
    new PutItemCommand({
      TableName: streamTable,
      Item: { id: { S: 'a' }, n: { N: scheme === 'light' ? '2' : '3' } },
    }),
  );
  await tail.getByRole('article').first().waitFor(slow);
  await check(page, findings, 'stream tail');
  await shoot('a11y-stream-tail');
  await restore();

  await page.getByRole('tab', { name: 'Overview' }).click();
  const change = page.getByRole('region', { name: 'Change' });
  await change.waitFor(slow);
  const purge = change.getByRole('group', { name: 'Purge items' });
  await purge
    .getByText(/cost|estimat/i)
    .first()
    .waitFor(slow);
  // The two boxes sit on one screen: each is named for what it confirms.
  await purge.getByLabel('Type the table name to confirm the purge').fill(streamTable);
  const remove = change.getByRole('group', { name: 'Delete table' });
  await remove.getByLabel('Type the table name to confirm deleting it').fill(streamTable);
  await check(page, findings, 'purge and delete confirmations');
  await shoot('a11y-purge-delete', purge);
  await restore();

  // A commit, so the undo history has an entry to show.
  await page.getByRole('tab', { name: 'Items' }).click();
  await page.getByRole('radio', { name: 'Scan' }).click();
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  const rows = page.locator('.item-grid-row');
  await rows.first().locator('.item-grid-cell').first().waitFor(slow);
  await openRowByKey(rows.last());
  const editor = page.getByRole('complementary', { name: 'Item editor' });
  await editor.getByRole('button', { name: 'Stage delete' }).click();
  const staged = page.getByRole('region', { name: 'Staged changes' });
  await staged.getByRole('button', { name: 'Commit' }).click();
  // The journal entry is written with the commit: open the history once the commit is done.
  await page
    .getByRole('status')
    .filter({ hasText: /^Committed: 1 item written/ })
    .waitFor(slow);

  await page.getByRole('button', { name: 'Undo history…' }).click();
  const history = page.getByRole('dialog', { name: `Undo history — ${streamTable}` });
  await history
    .getByRole('button', { name: /^Undo "Committed 1 staged change"/ })
    .first()
    .waitFor(slow);
  await check(page, findings, 'undo history');
  await shoot('a11y-undo-history');
  await restore();
  await page.keyboard.press('Escape');
  await history.waitFor({ state: 'detached' });

  await page.getByRole('button', { name: 'Copy to…' }).click();
  const copy = page.getByRole('dialog', { name: `Copy ${streamTable} to…` });
  await copy.waitFor();
  await check(page, findings, 'copy dialog');
  await copy.getByText('Key mapping, speed and checks').click();
  await check(page, findings, 'copy dialog, all options');
  await shoot('a11y-copy-dialog');
  await restore();
  await page.keyboard.press('Escape');
  await copy.waitFor({ state: 'detached' });

  await openPlaygroundTable(page, SAMPLE_TABLE, 'Schema');
  await page.getByRole('button', { name: 'Sample', exact: true }).click();
  await page.getByTestId('schema-draw').waitFor(slow);
  await check(page, findings, 'schema');
  await shoot('a11y-schema');
  await restore();
  const entities = page.getByRole('group', { name: 'Entities' });
  await entities.getByRole('button', { name: /^orders/ }).click();
  await page
    .getByRole('table', { name: 'Attribute paths of orders' })
    .getByRole('button', { name: 'createdAt', exact: true })
    .click();
  const model = page.getByRole('region', { name: 'Model of orders' });
  // Every format the panel offers, so one added later is walked too.
  const formats = await model
    .getByLabel('Format')
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  expect(formats).toEqual(expect.arrayContaining(['ts', 'zod', 'json-schema']));
  for (const format of formats) {
    await model.getByLabel('Format').selectOption(format);
    await check(page, findings, `schema model (${format})`);
  }
  await shoot('a11y-schema-model', model);
  await restore();
}

describe("the table's tools under axe-core", () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`has no serious or critical violation in the ${scheme} theme at 1024×700 and 1440×900`, async () => {
      await createStreamTable();
      const findings = noFindings();
      const page = await session.openPage();
      try {
        await walk(page, scheme, findings);
      } finally {
        await report(`axe-table-tools-${scheme}`, findings);
        await session.browser.screenshot(`axe-table-tools-end-${scheme}`);
      }
      expect(findings.serious).toEqual([]);
      expect(session.browser.pageErrors).toEqual([]);
    }, 360_000);
  }
});
