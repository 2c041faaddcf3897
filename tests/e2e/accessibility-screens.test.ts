import { UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { SAMPLE_TABLE } from '../../resources/playground/sample-table';
import { check, noFindings, report, type Findings } from './support/axe-walk';
import { useColorScheme } from './support/browser';
import { useFakeBedrock, vipProposal } from './support/assistant';
import { useAppInBrowser } from './support/session';
import { openRowByKey } from './support/grid-rows';

// Every screen and dialog under axe-core, walked once per theme, each checked at both window
// sizes the UI is designed for. Real server, core, playground (real Java) and Chromium; the
// assistant talks to the fake Bedrock. No fixed sleeps: each step waits for what a user would see.
const slow = { timeout: 120_000 };
const session = useAppInBrowser({ withPlayground: true });
const bedrock = useFakeBedrock();

async function walk(scheme: 'light' | 'dark', findings: Findings): Promise<void> {
  const page = await session.openPage();
  await useColorScheme(page, scheme);
  // The first walk leaves the playground open, and a reload restores it (after the picker has
  // shown for a moment, so wait for the workspace itself): go back to the picker as a user would.
  const picker = page.getByRole('heading', { name: 'Local playground' });
  if (scheme === 'dark') {
    const back = page.getByRole('button', { name: '‹ Connections' });
    await back.waitFor(slow);
    await back.click();
  }
  await picker.waitFor();
  await check(page, findings, 'connections');

  await page.getByRole('button', { name: 'New connection' }).first().click();
  await page.getByRole('dialog').waitFor();
  await check(page, findings, 'connection dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });

  await page.getByRole('button', { name: 'Open playground' }).click();
  await page.getByRole('tab', { name: 'Tables', exact: true }).click(slow);
  await page.getByTestId('table-row').filter({ hasText: SAMPLE_TABLE }).waitFor(slow);
  await check(page, findings, 'table list');

  await page.getByRole('button', { name: 'Create table' }).click();
  await page.getByRole('dialog', { name: /Create table/ }).waitFor();
  await check(page, findings, 'create table dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });

  await page.getByRole('button', { name: SAMPLE_TABLE, exact: true }).click();
  await page.getByRole('tab', { name: 'Overview' }).click();
  await page.getByRole('region', { name: 'Keys' }).waitFor();
  await check(page, findings, 'overview');
  const change = page.getByRole('region', { name: 'Change' });
  await change.getByLabel('What to change').selectOption('addIndex');
  await check(page, findings, 'change table');

  await page.getByRole('tab', { name: 'Items' }).click();
  await page.getByRole('radio', { name: 'Scan' }).click();
  await page.getByRole('button', { name: 'Scan', exact: true }).click();
  const rows = page.locator('.item-grid-row');
  await rows.first().locator('.item-grid-cell').first().waitFor(slow);
  await check(page, findings, 'items after a scan');

  await page.getByRole('button', { name: 'Export…' }).click();
  await page.getByRole('dialog', { name: 'Export' }).waitFor();
  await check(page, findings, 'export dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Import…' }).click();
  await page.getByRole('dialog').waitFor();
  await check(page, findings, 'import dialog');
  // The file input's own button is filled as the dialog's buttons are (Cancel): in the dark theme
  // the browser's was a grey block.
  const fills = await page.getByRole('dialog').evaluate((dialog) => {
    const input = dialog.querySelector('input[type="file"]');
    const cancel = [...dialog.querySelectorAll('button')].find((b) => b.textContent === 'Cancel');
    return [
      input ? getComputedStyle(input, '::file-selector-button').backgroundColor : 'no file input',
      cancel ? getComputedStyle(cancel).backgroundColor : 'no Cancel',
    ];
  });
  expect(fills[0]).toBe(fills[1]);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Delete / update…' }).click();
  await page.getByRole('dialog').waitFor();
  await check(page, findings, 'bulk dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });

  // An order from GSI1, whose currency both "someone else" and the user change.
  await page.getByRole('radio', { name: 'Query' }).click();
  await page.getByLabel('Table or index').selectOption('GSI1');
  await page.getByLabel('Partition key GSI1PK').fill('STATUS#SHIPPED');
  await page.getByRole('button', { name: 'Query', exact: true }).click();
  await rows.first().locator('.item-grid-cell').first().waitFor(slow);
  const openFirst = async () => {
    await openRowByKey(rows.first());
    await editor.getByLabel('currency', { exact: true }).waitFor();
    // The editor as a user works in it: the current item loaded, its fields enabled (while it
    // loads, the disabled form leaves the scrolling body nothing to focus).
    await editor.getByText('Loading the current item…').waitFor({ state: 'detached' });
  };
  const editor = page.getByRole('complementary', { name: 'Item editor' });
  await openFirst();
  await check(page, findings, 'item editor');
  const [pk = '', sk = ''] = (await editor.locator('h2').innerText()).split(' · ');

  await editor.getByRole('button', { name: 'Stage delete' }).click();
  const staged = page.getByRole('region', { name: 'Staged changes' });
  await staged.getByText('1 staged change').waitFor();
  await check(page, findings, 'staged changes');
  await staged.getByRole('button', { name: 'Discard', exact: true }).first().click();
  await staged.waitFor({ state: 'detached' });

  await openFirst();
  await session.playgroundClient.send(
    new UpdateItemCommand({
      TableName: SAMPLE_TABLE,
      Key: { PK: { S: pk }, SK: { S: sk } },
      UpdateExpression: 'SET #c = :c',
      ExpressionAttributeNames: { '#c': 'currency' },
      ExpressionAttributeValues: { ':c': { S: scheme === 'light' ? 'USD' : 'EUR' } },
    }),
  );
  await editor.getByLabel('currency', { exact: true }).fill('JPY');
  await editor.getByRole('button', { name: 'Save' }).click();
  await editor.getByRole('region', { name: 'Conflict' }).waitFor();
  await check(page, findings, 'conflict view');
  await editor.getByRole('button', { name: 'Close the editor' }).click();
  // The user's JPY is still unsaved: closing asks, and the walk checks that question too.
  const unsaved = page.getByRole('dialog', { name: 'Save your changes?' });
  await unsaved.waitFor();
  await check(page, findings, 'unsaved changes question');
  await unsaved.getByRole('button', { name: 'Discard' }).click();
  await editor.waitFor({ state: 'detached' });

  await page.getByRole('tab', { name: 'Pre-flight' }).click();
  await page.getByRole('button', { name: 'Scan table' }).click();
  await page.locator('.mig-verdict').waitFor(slow);
  await check(page, findings, 'pre-flight');

  await page.getByRole('tab', { name: 'SQL' }).click();
  await page.getByRole('button', { name: 'orders', exact: true }).waitFor(slow);
  await page.locator('.sql-editor .cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('SELECT status, COUNT(*) AS n FROM orders GROUP BY status ORDER BY status');
  await page.keyboard.press('Control+Enter');
  await page.locator('.sql-grid [role="gridcell"]').first().waitFor(slow);
  await check(page, findings, 'SQL results');
  await page.locator('.sql-chart').waitFor();
  await page.getByRole('tab', { name: 'Plan' }).click();
  await page.getByRole('button', { name: 'Plan', exact: true }).click();
  await page.locator('.sql-plan').waitFor(slow);
  await check(page, findings, 'SQL plan');

  await page.getByTestId('top-bar').getByRole('button', { name: 'Assistant' }).click();
  const assistant = page.getByRole('complementary', { name: 'Assistant' });
  await assistant.getByRole('button', { name: 'Settings' }).click();
  await check(page, findings, 'assistant settings');
  await assistant.getByLabel('Bedrock endpoint (optional)').fill(bedrock.fake.endpoint);
  await assistant.getByRole('button', { name: 'Save' }).click();
  bedrock.fake.script = vipProposal('Left as it is.');
  await assistant.getByRole('textbox', { name: 'Question for the assistant' }).fill('Mark u1 as VIP');
  await assistant.getByRole('button', { name: 'Ask', exact: true }).click();
  const card = assistant.getByRole('region', { name: 'Approval needed' }).last();
  await card.getByText('Approve these writes?').waitFor(slow);
  await check(page, findings, 'assistant approval');
  await card.getByRole('button', { name: 'Reject' }).click();
  await assistant.getByText('Left as it is.').last().waitFor(slow);
}

describe('every screen under axe-core', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`has no serious or critical violation in the ${scheme} theme at 1024×700 and 1440×900`, async () => {
      const findings = noFindings();
      try {
        await walk(scheme, findings);
      } finally {
        await report(`axe-${scheme}`, findings);
        await session.browser.screenshot(`axe-walk-end-${scheme}`);
      }
      expect(findings.serious).toEqual([]);
      expect(session.browser.pageErrors).toEqual([]);
    }, 360_000);
  }
});
