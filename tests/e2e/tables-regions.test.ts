import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyedTable } from '../support/dynamo-tables';
import { startDynamoLocal, type LocalDynamo } from '../support/dynamo-local';
import { startRegionProxy, type RegionProxy } from '../support/region-proxy';
import { check, noFindings, report } from './support/axe-walk';
import { useColorScheme } from './support/browser';
import { screenshots } from './support/screenshots';
import { useAppInBrowser } from './support/session';

// An AWS connection (a profile, no endpoint of its own) whose every region is a DynamoDB Local
// behind a proxy: the SDK's AWS_ENDPOINT_URL_DYNAMODB sends all regions there, and DynamoDB Local
// (without -sharedDb) keeps one database per signed region, so eu-west-1 and us-west-2 hold
// different tables, as two AWS regions would.
const slow = { timeout: 120_000 };
const session = useAppInBrowser();
const stamp = Date.now().toString(36);
const home = `Home-${stamp}`;
const west = `West-${stamp}`;
const keys = {
  accessKeyId: 'AKIAE2ETESTEXAMPLE00',
  secretAccessKey: 'e2eSecretKeyThatIsNotRealAtAll000000000',
};
let local: LocalDynamo;
let proxy: RegionProxy;

const savedWorkspace = (): Promise<string> =>
  readFile(path.join(session.app.dataDir, 'workspace.json'), 'utf8').catch(() => '');

const clientIn = (region: string) =>
  new DynamoDBClient({ endpoint: local.endpoint, region, credentials: keys });

async function tableIn(region: string, name: string, id: string): Promise<void> {
  const client = clientIn(region);
  await createKeyedTable(client, name, { items: [{ id: { S: id }, region: { S: region } }] });
  client.destroy();
}

async function tablesIn(region: string): Promise<string[]> {
  const client = clientIn(region);
  const names = (await client.send(new ListTablesCommand({}))).TableNames ?? [];
  client.destroy();
  return names;
}

beforeAll(async () => {
  local = await startDynamoLocal();
  proxy = await startRegionProxy(local.endpoint, {});
  process.env.AWS_ENDPOINT_URL_DYNAMODB = proxy.endpoint;
  await tableIn('eu-west-1', home, 'home-item');
  await tableIn('us-west-2', west, 'west-item');
  await session.app.core.connections.save({
    label: 'AWS account',
    color: '#1f6feb',
    kind: 'profile',
    profile: 'e2e-keys',
    region: 'eu-west-1',
    readOnly: false,
    isProduction: false,
  });
}, 120_000);
afterAll(async () => {
  delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
  await proxy.close();
  await local.stop();
});

describe('the table list across regions of an AWS connection', () => {
  it('lists the chosen regions grouped, opens a table of another region, and remembers the choice', async () => {
    const page = await session.openPage();
    const card = page.getByTestId('connection-card').filter({ hasText: 'AWS account' });
    await card.getByRole('button', { name: 'Open', exact: true }).click();
    const list = page.getByRole('table', { name: 'Tables' });
    await list.getByRole('button', { name: home, exact: true }).waitFor(slow);

    // The picker is on screen for an AWS connection (the playground hides it: tables-list.test.ts).
    const picker = page.locator('.region-picker > summary');
    await expect.poll(() => picker.innerText()).toBe('Regions: eu-west-1');
    const box = await picker.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport && box.x >= 0 && box.x + box.width <= viewport.width && box.y >= 0).toBe(true);

    await picker.click();
    await page.getByRole('checkbox', { name: /^us-west-2/ }).check();
    await picker.click();
    const group = (region: string) => list.getByRole('rowgroup', { name: region });
    await group('us-west-2').getByRole('button', { name: west, exact: true }).waitFor(slow);
    // Each group holds what its region's ListTables answers, and nothing of the other region.
    const shown = async (region: string) =>
      (await group(region).locator('.cell-name').allInnerTexts()).filter((n) => n.endsWith(stamp));
    await expect
      .poll(() => shown('eu-west-1'))
      .toEqual((await tablesIn('eu-west-1')).filter((n) => n.endsWith(stamp)));
    await expect
      .poll(() => shown('us-west-2'))
      .toEqual((await tablesIn('us-west-2')).filter((n) => n.endsWith(stamp)));
    await expect.poll(() => shown('us-west-2')).toEqual([west]);
    await expect.poll(() => picker.innerText()).toBe('Regions: eu-west-1, us-west-2');
    await screenshots(page, 'tables-regions', list);
    // The grouped list and the open picker under axe-core, both themes at both sizes.
    const findings = noFindings();
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page, scheme);
      await check(page, findings, `grouped table list (${scheme})`);
      await picker.click();
      const panel = page.getByRole('group', { name: 'Regions to list' });
      await panel.waitFor();
      // Its buttons sit inside the panel, not squeezed past its edge beside the legend.
      const frame = await panel.boundingBox();
      for (const name of ['All regions', 'Only eu-west-1']) {
        const button = await panel.getByRole('button', { name }).boundingBox();
        expect(
          frame && button && button.x >= frame.x && button.x + button.width <= frame.x + frame.width,
        ).toBe(true);
      }
      await check(page, findings, `region picker (${scheme})`);
      if (scheme === 'light') await screenshots(page, 'tables-region-picker');
      await picker.click();
    }
    await useColorScheme(page, 'light');
    await report('a11y-tables-regions', findings);
    expect(findings.serious).toEqual([]);
    // Every column, deletion protection last, fits the window at both sizes: no sideways scroll.
    for (const size of [
      { width: 1024, height: 700 },
      { width: 1440, height: 900 },
    ]) {
      await page.setViewportSize(size);
      const scroll = page.locator('.table-list .grid-scroll');
      const overflow = await scroll.evaluate((element) => element.scrollWidth - element.clientWidth);
      expect(overflow, `sideways scroll at ${size.width}×${size.height}`).toBeLessThanOrEqual(0);
      const last = await list.getByRole('columnheader', { name: /Del/ }).boundingBox();
      expect(last && last.x + last.width <= size.width).toBe(true);
    }

    // Opened through the connection as it acts in us-west-2: its items come from there.
    await group('us-west-2').getByRole('button', { name: west, exact: true }).click();
    const tab = page.getByRole('tab', { name: new RegExp(`^${west}\\s*us-west-2`) });
    await tab.waitFor(slow);
    await page.getByRole('tab', { name: 'Items' }).click();
    await page
      .getByRole('gridcell', { name: 'west-item' })
      .or(page.getByText('west-item'))
      .first()
      .waitFor(slow);
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page
      .getByText(/arn:aws:dynamodb:(ddblocal|us-west-2)/)
      .first()
      .waitFor(slow);

    // A new page of the same app finds the same regions chosen for this connection.
    await page.reload();
    const reopen = page.getByTestId('connection-card').filter({ hasText: 'AWS account' });
    await reopen
      .getByRole('button', { name: 'Open', exact: true })
      .or(page.getByRole('tab', { name: 'Tables', exact: true }))
      .first()
      .waitFor(slow);
    if (await reopen.isVisible()) await reopen.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('tab', { name: 'Tables', exact: true }).click();
    await page.getByRole('rowgroup', { name: 'us-west-2' }).getByRole('button', { name: west }).waitFor(slow);
    await expect
      .poll(() => page.locator('.region-picker > summary').innerText())
      .toBe('Regions: eu-west-1, us-west-2');
  });

  it('queries the table of another region in SQL, and the SQL tab lists and reads that region', async () => {
    const { page } = session.browser;
    await page
      .getByRole('rowgroup', { name: 'us-west-2' })
      .getByRole('button', { name: west, exact: true })
      .click();
    await page.getByRole('tab', { name: new RegExp(`^${west}\\s*us-west-2`) }).waitFor(slow);
    await page.getByRole('button', { name: 'Query in SQL' }).click();

    // The workbench switched to us-west-2: its catalog is that region's, its statement reads there.
    const region = page.getByRole('combobox', { name: 'Region' });
    await region.waitFor(slow);
    await expect.poll(() => region.inputValue()).toBe('us-west-2');
    const side = page.getByRole('complementary', { name: 'Tables, saved queries and history' });
    await side.getByRole('button', { name: west, exact: true }).waitFor(slow);
    const catalogNames = async () =>
      (await side.locator('.sql-tree-item').allInnerTexts())
        .map((text) => text.replace(/^T\s*/, '').trim())
        .filter((n) => n.endsWith(stamp));
    await expect
      .poll(() => catalogNames())
      .toEqual((await tablesIn('us-west-2')).filter((n) => n.endsWith(stamp)));
    await expect.poll(() => page.locator('.sql-editor .cm-content').innerText()).toContain(`FROM "${west}"`);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const grid = page.locator('.sql-grid');
    await grid.getByRole('gridcell', { name: 'west-item' }).waitFor(slow);
    await expect.poll(() => grid.getByRole('gridcell', { name: 'us-west-2' }).count()).toBe(1);
    await expect.poll(() => page.locator('.sql-result-bar').innerText()).toMatch(/^1 row/);
    await screenshots(page, 'sql-other-region', page.locator('.sql-workbench'));

    // Back to the connection's own region: its own tables, not the other region's.
    await region.selectOption('eu-west-1');
    await side.getByRole('button', { name: home, exact: true }).waitFor(slow);
    await expect
      .poll(() => catalogNames())
      .toEqual((await tablesIn('eu-west-1')).filter((n) => n.endsWith(stamp)));
    expect(session.browser.pageErrors).toEqual([]);
  }, 120_000);

  it('reopens the SQL tab on the region chosen in it, after a reload', async () => {
    const { page } = session.browser;
    const tabs = page.getByRole('tablist', { name: 'Open tabs' });
    await tabs.getByRole('tab', { name: 'SQL', exact: true }).click();
    const region = page.getByRole('combobox', { name: 'Region' });
    const side = page.getByRole('complementary', { name: 'Tables, saved queries and history' });
    await region.selectOption('us-west-2');
    await side.getByRole('button', { name: west, exact: true }).waitFor(slow);
    await expect.poll(savedWorkspace, slow).toContain('"sqlRegion":"us-west-2"');

    await page.reload();
    // The connection and its SQL tab come back as they were left, reading us-west-2.
    await region.waitFor(slow);
    await expect
      .poll(() => tabs.getByRole('tab', { name: 'SQL', exact: true }).getAttribute('aria-selected'))
      .toBe('true');
    await expect.poll(() => region.inputValue(), slow).toBe('us-west-2');
    await side.getByRole('button', { name: west, exact: true }).waitFor(slow);
    await expect.poll(() => side.getByRole('button', { name: home, exact: true }).count()).toBe(0);

    // The connection's own region is the default again, and nothing of the choice stays saved.
    await region.selectOption('eu-west-1');
    await side.getByRole('button', { name: home, exact: true }).waitFor(slow);
    await expect.poll(savedWorkspace, slow).not.toContain('sqlRegion');
    expect(session.browser.pageErrors).toEqual([]);
  }, 120_000);

  it('offers the region in the Create table dialog under axe-core, with the index form lined up', async () => {
    const { page } = session.browser;
    await page.getByRole('tab', { name: 'Tables', exact: true }).click();
    await page
      .getByRole('table', { name: 'Tables' })
      .getByRole('rowgroup', { name: 'us-west-2' })
      .waitFor(slow);
    await page.getByRole('button', { name: 'Create table' }).click();
    const dialog = page.getByRole('dialog', { name: /Create table/ });
    const regionSelect = dialog.getByRole('combobox', { name: 'Create in region' });
    await regionSelect.selectOption('us-west-2');
    await page.getByRole('dialog', { name: 'Create table in AWS account · us-west-2' }).waitFor();
    // The single-table template has a global index with a sort key; a local index joins it.
    await dialog.getByRole('radio', { name: /Single-table design/ }).click();
    await dialog.getByRole('button', { name: 'Add local index' }).click();
    const gsi = dialog.getByRole('group', { name: 'GSI1' });
    await dialog.getByRole('group', { name: 'LSI1' }).waitFor();

    // Side by side, the fields of a row (the table's keys, each index's grid) start their inputs
    // at the same height, whichever heads them: a label, or the sort key's checkbox.
    const findings = noFindings();
    for (const size of [
      { width: 1024, height: 700 },
      { width: 1440, height: 900 },
    ]) {
      await page.setViewportSize(size);
      const misaligned = await dialog.locator('.field-row, .index-fields-grid').evaluateAll((rows) =>
        rows.flatMap((row) => {
          const cells = [...row.children].flatMap((cell) => {
            const input = cell.querySelector('.input');
            return input
              ? [
                  {
                    top: cell.getBoundingClientRect().top,
                    inputTop: input.getBoundingClientRect().top,
                    name: input.getAttribute('aria-label') ?? '',
                  },
                ]
              : [];
          });
          return cells.flatMap((a) =>
            cells
              .filter((b) => Math.abs(a.top - b.top) < 1 && a.inputTop - b.inputTop >= 1)
              .map((b) => `${a.name} is ${(a.inputTop - b.inputTop).toFixed(1)}px below ${b.name}`),
          );
        }),
      );
      expect(misaligned, `at ${size.width}×${size.height}`).toEqual([]);
    }
    for (const scheme of ['light', 'dark'] as const) {
      await useColorScheme(page, scheme);
      await regionSelect.scrollIntoViewIfNeeded();
      await check(page, findings, `create table in a region (${scheme})`);
    }
    await useColorScheme(page, 'light');
    await report('a11y-tables-create-in-region', findings);
    expect(findings.serious).toEqual([]);
    await screenshots(page, 'tables-create-region-select', regionSelect);
    await screenshots(page, 'tables-create-index-form', gsi);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  }, 120_000);

  it('creates a table in another region from the grouped list, lists it there at once, and drops it once deleted', async () => {
    const { page } = session.browser;
    const made = `Made-${stamp}`;
    await page.getByRole('tab', { name: 'Tables', exact: true }).click();
    const list = page.getByRole('table', { name: 'Tables' });
    const inWest = () =>
      list.getByRole('rowgroup', { name: 'us-west-2' }).getByRole('button', { name: made, exact: true });
    await list.getByRole('rowgroup', { name: 'us-west-2' }).waitFor(slow);
    await page.getByRole('button', { name: 'Create table' }).click();
    const dialog = page.getByRole('dialog', { name: /Create table/ });
    await dialog.getByRole('combobox', { name: 'Create in region' }).selectOption('us-west-2');
    await page.getByRole('dialog', { name: 'Create table in AWS account · us-west-2' }).waitFor();
    // The definition is copied from the other region's table, read through that region.
    await dialog.getByRole('radio', { name: /Copy a table/ }).click();
    await dialog.getByRole('combobox', { name: 'Copy from connection' }).selectOption({
      label: 'AWS account · us-west-2',
    });
    const toCopy = dialog.getByRole('combobox', { name: 'Table to copy' });
    await toCopy.locator('option', { hasText: west }).waitFor({ state: 'attached', ...slow });
    await expect.poll(() => toCopy.locator('option', { hasText: home }).count()).toBe(0);
    await toCopy.selectOption(west);
    await dialog.getByRole('button', { name: 'Copy definition' }).click();
    await expect.poll(() => dialog.getByLabel('Table name').inputValue(), slow).toBe(`${west}-copy`);
    await expect.poll(() => dialog.getByLabel('Partition key name').inputValue()).toBe('id');
    await dialog.getByLabel('Table name').fill(made);
    await screenshots(page, 'tables-create-in-region');
    await dialog.getByRole('button', { name: 'Create table' }).click();
    await dialog
      .getByRole('status')
      .filter({ hasText: `${made} is ACTIVE` })
      .waitFor(slow);
    await expect.poll(() => tablesIn('us-west-2')).toContain(made);
    await expect.poll(() => tablesIn('eu-west-1')).not.toContain(made);
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    // Listed in its region's group without a Refresh.
    await inWest().waitFor(slow);
    await expect
      .poll(() =>
        list.getByRole('rowgroup', { name: 'eu-west-1' }).getByRole('button', { name: made }).count(),
      )
      .toBe(0);

    await inWest().click();
    await page.getByRole('tab', { name: new RegExp(`^${made}\\s*us-west-2`) }).waitFor(slow);
    await page.getByRole('tab', { name: 'Overview' }).click();
    const deleting = page.getByRole('group', { name: 'Delete table' });
    await deleting.getByLabel('Type the table name to confirm').fill(made);
    await deleting.getByRole('button', { name: 'Delete table' }).click();
    await expect.poll(async () => (await tablesIn('us-west-2')).includes(made), slow).toBe(false);
    await page.getByRole('tab', { name: 'Tables', exact: true }).click();
    await expect.poll(() => inWest().count(), slow).toBe(0);
    expect(session.browser.pageErrors).toEqual([]);
  }, 180_000);
});
